#!/usr/bin/env bash
# The README's test command: install, build, then every test — unit and integration on SQLite and
# PostgreSQL (vitest), browser tests with JavaScript on and off (Playwright, Debian's Chromium).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1
npx remix build || exit 1
mkdir -p test-results
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
vitest_status=$?
npx playwright test
playwright_status=$?
node scripts/test-summary.mjs
[ "$vitest_status" -eq 0 ] && [ "$playwright_status" -eq 0 ]
