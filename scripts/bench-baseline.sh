#!/usr/bin/env bash
# A baseline checkout for the benchmarks' --baseline (bench/portal.bench.ts, bench/mpesa.bench.ts):
#   bash scripts/bench-baseline.sh <commit-ish>
# makes (or reuses) a detached worktree of that commit under data/bench/baseline-<shortsha> (data/ is
# git-ignored), links this checkout's node_modules into it, builds it (`npx remix build`) and prints
# its path, to pass as `npm run bench -- portal --baseline <path>`. Running it again reuses the
# worktree and rebuilds (the build is a few seconds next to a benchmark run).
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "Usage: bash scripts/bench-baseline.sh <commit-ish>" >&2
  exit 2
fi
root=$(git rev-parse --show-toplevel)
cd "$root"
sha=$(git rev-parse --verify --quiet "$1^{commit}") || {
  echo "Not a commit: $1" >&2
  exit 2
}
dir="$root/data/bench/baseline-${sha:0:10}"

if [ ! -e "$dir/.git" ]; then
  mkdir -p "$root/data/bench"
  git worktree add --detach "$dir" "$sha" >&2
elif [ "$(git -C "$dir" rev-parse HEAD)" != "$sha" ]; then
  echo "$dir holds $(git -C "$dir" rev-parse --short HEAD), not ${sha:0:10}: remove it (git worktree remove $dir)" >&2
  exit 1
fi
# The same dependencies as this checkout (node_modules may itself be a link: link to what it names).
if [ ! -e "$dir/node_modules" ]; then ln -s "$(readlink -f "$root/node_modules")" "$dir/node_modules"; fi
(cd "$dir" && npx remix build >&2)
echo "$dir"
