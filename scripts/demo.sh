#!/usr/bin/env bash
# The README's run command: install, build, migrate, load demo data into an empty database, serve.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npx remix build
mkdir -p data
# A production start needs a session secret: make one once and keep it beside the database.
if [ -z "${SESSION_SECRET:-}" ]; then
  [ -s data/session-secret ] || node -e "process.stdout.write(require('crypto').randomBytes(32).toString('hex'))" > data/session-secret
  SESSION_SECRET="$(cat data/session-secret)"
  export SESSION_SECRET
fi
# Stored gateway and provider credentials are encrypted under SECRETS_KEY: likewise made once.
if [ -z "${SECRETS_KEY:-}" ]; then
  [ -s data/secrets-key ] || node -e "process.stdout.write(require('crypto').randomBytes(32).toString('hex'))" > data/secrets-key
  SECRETS_KEY="$(cat data/secrets-key)"
  export SECRETS_KEY
fi
# Mailed links (password reset, invitations) are built from PUBLIC_URL only; the demo serves it locally.
export PUBLIC_URL="${PUBLIC_URL:-http://localhost:${PORT:-3000}}"
export NODE_ENV=production
npx tsx app/db/cli.ts demo
exec node server.mjs
