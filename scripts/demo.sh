#!/usr/bin/env bash
# The README's run command: install, build, migrate, load demo data into an empty database, serve.
# Ports: the console on PORT (3000), the fake Daraja on DARAJA_PORT (3199), the fake Africa's Talking
# on AFRICASTALKING_PORT (3198), FreeRADIUS (when installed) on RADIUS_AUTH_PORT/RADIUS_ACCT_PORT
# (1812/1813). The request log (a JSON line per request, REQUEST_LOG) is off unless DEMO_REQUEST_LOG=1.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "Mlango demo: the console on port ${PORT:-3000}, the fake Daraja on ${DARAJA_PORT:-3199}, the fake Africa's Talking on ${AFRICASTALKING_PORT:-3198}, FreeRADIUS (if installed) on ${RADIUS_AUTH_PORT:-1812}/${RADIUS_ACCT_PORT:-1813}."
echo "  Another port: PORT=…, DARAJA_PORT=…, AFRICASTALKING_PORT=…, RADIUS_AUTH_PORT=… RADIUS_ACCT_PORT=… npm run demo"
bash scripts/ensure-deps.sh
echo "Building the app (remix build)…"
npx remix build
node scripts/precompress-build.mjs
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
# M-Pesa works offline: the fake Daraja (scripts/fakes/daraja.ts) answers the demo organisation's
# payments (each "paid" two seconds after the prompt), unless DARAJA_URL names another stand-in.
if [ -z "${DARAJA_URL:-}" ]; then
  export DARAJA_URL="http://127.0.0.1:${DARAJA_PORT:-3199}"
  npx tsx scripts/fakes/daraja.ts --port "${DARAJA_PORT:-3199}" > data/daraja.log 2>&1 &
fi
# SMS works offline too: the fake Africa's Talking takes the demo organisation's broadcasts and reports
# each message delivered to the demo's callback key, unless AFRICASTALKING_URL names another stand-in.
# The key is random, made once per install like the secrets above: whoever knows it can opt the demo's
# customers out or forge delivery reports. The demo data loaded below gives it to the demo organisation.
if [ -z "${AFRICASTALKING_URL:-}" ]; then
  [ -s data/sms-callback-key ] || node -e "process.stdout.write(require('crypto').randomBytes(24).toString('base64url'))" > data/sms-callback-key
  DEMO_SMS_CALLBACK_KEY="$(cat data/sms-callback-key)"
  export AFRICASTALKING_URL="http://127.0.0.1:${AFRICASTALKING_PORT:-3198}"
  npx tsx scripts/fakes/africastalking.ts --port "${AFRICASTALKING_PORT:-3198}" \
    --delivery-url "${PUBLIC_URL}/marketing/sms/${DEMO_SMS_CALLBACK_KEY}/delivery" > data/africastalking.log 2>&1 &
fi
# RADIUS (MikroTik, Cisco, Ruckus gateways): FreeRADIUS in front of the demo, when Debian's freeradius
# and freeradius-rest are installed, on 127.0.0.1:1812/1813 (RADIUS_AUTH_PORT, RADIUS_ACCT_PORT).
if [ -z "${RADIUS_API_SECRET:-}" ]; then
  [ -s data/radius-api-secret ] || node -e "process.stdout.write(require('crypto').randomBytes(24).toString('base64url'))" > data/radius-api-secret
  RADIUS_API_SECRET="$(cat data/radius-api-secret)"
  export RADIUS_API_SECRET
fi
RADIUS_STARTED=""
if [ -x /usr/sbin/freeradius ] && [ -e /usr/lib/freeradius/rlm_rest.so ]; then
  MLANGO_URL="http://127.0.0.1:${PORT:-3000}" npx tsx scripts/radius/start.ts > data/freeradius.log 2>&1 &
  RADIUS_STARTED=1
fi
npx tsx app/tools/cli/main.ts demo ${DEMO_SMS_CALLBACK_KEY:+--sms-callback-key "$DEMO_SMS_CALLBACK_KEY"}
echo "Starting the server…"
# Live guests for the console to show: once the server answers, the gateway simulator plays a dozen
# guests through the real guest path (a Meraki network, "Simulator Lab") and leaves them online; three
# more buy a plan with M-Pesa from the connect page, paid through the fake Daraja started above.
(
  answered=""
  for _ in $(seq 1 90); do
    node -e "fetch('http://127.0.0.1:${PORT:-3000}/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" && answered=1 && break
    sleep 1
  done
  if [ -z "$answered" ]; then
    echo "The server did not answer on port ${PORT:-3000} within 90 s: see the lines above."
    exit 0
  fi
  # Printed once the server answers, not before (the demo owner: DEMO_LOGIN in app/tools/demo.server.ts).
  echo "Mlango is ready: sign in at ${PUBLIC_URL}/login as admin@example.com / mlango-demo (Ctrl-C stops the demo)."
  # It stays running and sends an interim for its guests every 5 minutes, so they stay online with
  # growing durations (without one for PORTAL_IDLE_MINUTES, 15, the server ends a guest at its last record).
  npx tsx scripts/simulate.ts --url "http://127.0.0.1:${PORT:-3000}" --guests 12 --buyers 3 --make meraki --stay --keep-alive 5 > data/simulator.log 2>&1 &
  simulator=$!
  for _ in $(seq 1 300); do
    grep -q -E '^Keeping [0-9]+ guests online|guests failed\.' data/simulator.log && break
    kill -0 "$simulator" 2> /dev/null || break
    sleep 1
  done
  if grep -q '^Keeping [0-9]* guests online' data/simulator.log; then
    echo "Live guests: the gateway simulator played 12 guests and 3 M-Pesa purchases through the network \"Simulator Lab\"; those it left online stay online while the demo runs (data/simulator.log)."
  else
    echo "The gateway simulator could not add live guests: see data/simulator.log."
  fi
  if [ -n "$RADIUS_STARTED" ]; then
    npx tsx scripts/simulate.ts --url "http://127.0.0.1:${PORT:-3000}" --guests 6 --make mikrotik --stay \
      --radius "127.0.0.1:${RADIUS_AUTH_PORT:-1812}:${RADIUS_ACCT_PORT:-1813}" > data/simulator-radius.log 2>&1 \
      && echo "RADIUS: the simulator logged 6 guests in through a MikroTik and FreeRADIUS (data/simulator-radius.log)." \
      || echo "The RADIUS simulation failed: see data/simulator-radius.log and data/freeradius.log."
  fi
) &
# The request log floods a terminal: the demo's server writes none unless asked (REQUEST_LOG, README).
if [ "${DEMO_REQUEST_LOG:-}" = "1" ]; then
  export REQUEST_LOG=on
else
  export REQUEST_LOG="${REQUEST_LOG:-off}"
fi
exec node server.mjs
