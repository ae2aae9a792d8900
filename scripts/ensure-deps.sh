#!/usr/bin/env bash
# Installs the exact locked packages when node_modules is missing or older than the lockfile, saying
# what it is doing meanwhile: better-sqlite3 compiles from source where no prebuilt binary fits this
# Node and platform, which can take ten minutes without a word from npm.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # A node_modules that is a link to another checkout's is shared: npm ci would empty that one first.
  if [ -L node_modules ]; then
    echo "node_modules links to $(readlink node_modules), which is older than package-lock.json: not reinstalling a shared copy; run npm ci where it lives." >&2
    exit 1
  fi
  mkdir -p data
  log=data/npm-ci.log
  echo "Installing packages (npm ci; its output goes to $log)…"
  echo "  better-sqlite3 is compiled from source when no prebuilt binary fits Node $(node --version) on $(uname -sm): that can take 10 minutes."
  # --foreground-scripts: the compiler's lines reach the log as they happen, so progress can be shown.
  npm ci --no-audit --no-fund --foreground-scripts >"$log" 2>&1 &
  install=$!
  started=$SECONDS
  while kill -0 "$install" 2>/dev/null; do
    sleep 15
    kill -0 "$install" 2>/dev/null || break
    packages=$(find node_modules -mindepth 2 -maxdepth 3 -name package.json 2>/dev/null | wc -l)
    last=$(grep -E 'CXX|CC\(|gyp info|prebuild' "$log" 2>/dev/null | tail -n 1 | cut -c1-100 || true)
    printf '  … %dm %02ds: %s packages in place%s\n' $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)) "$packages" "${last:+; last: $last}"
  done
  if ! wait "$install"; then
    tail -n 30 "$log"
    echo "npm ci failed: see $log." >&2
    exit 1
  fi
  # Warnings (EBADENGINE and the like) stay in the log; the README says which are expected.
  echo "Packages installed in $(((SECONDS - started) / 60))m $(((SECONDS - started) % 60))s ($(grep -c 'EBADENGINE' "$log" || true) engine warnings, see $log)."
fi
