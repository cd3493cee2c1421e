#!/usr/bin/env bash
# `npm run typecheck` and `npm run format:check` at once: tsc and Prettier each use one core, so
# together they take the time of the slower one. Each one's output is printed whole, in this order;
# the script fails when either does.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npm run --silent typecheck >"$out/typecheck" 2>&1 &
typecheck=$!
npm run --silent format:check >"$out/format" 2>&1 &
format=$!
wait "$typecheck"
typecheck_status=$?
wait "$format"
format_status=$?
echo "> npm run typecheck"
cat "$out/typecheck"
echo "> npm run format:check"
cat "$out/format"
if [ "$typecheck_status" -ne 0 ] || [ "$format_status" -ne 0 ]; then
  echo "static checks failed: typecheck exit $typecheck_status, format:check exit $format_status" >&2
  exit 1
fi
