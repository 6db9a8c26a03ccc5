#!/usr/bin/env bash
# Runs one spec file N times while a type-check loop keeps the machine busy, and prints how many
# passed: a test that fails now and then under load is a race to find in the code.
#   bash bench/flake-under-load.sh test/integration/delegation-executor.int-spec.ts 30
set -uo pipefail
cd "$(dirname "$0")/.."
spec="${1:?usage: bench/flake-under-load.sh <spec file> [runs]}"
runs="${2:-30}"
logs="$(mktemp -d)"
( while true; do npx tsc -p tsconfig.json --outDir "$logs/build" >/dev/null 2>&1; done ) &
load=$!
trap 'kill $load 2>/dev/null; pkill -f "outDir $logs/build" 2>/dev/null' EXIT
pass=0
for i in $(seq 1 "$runs"); do
  if npx jest --runInBand "$spec" >"$logs/run-$i.log" 2>&1; then pass=$((pass + 1)); else echo "run $i failed: $logs/run-$i.log"; fi
  echo "run $i: $pass passed, load $(cut -d' ' -f1 /proc/loadavg)"
done
echo "$spec under load: $pass of $runs passed"
