#!/usr/bin/env bash
# `npm run typecheck`, `npm run format:check` and `npm run lint` at once: tsc and Prettier each use
# one core and the linter (Biome, then knip) takes seconds, so together they take about the time of
# the slowest, tsc. Each one's output is printed whole, in this order; the script fails when any does.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npm run --silent typecheck >"$out/typecheck" 2>&1 &
typecheck=$!
npm run --silent format:check >"$out/format" 2>&1 &
format=$!
npm run --silent lint >"$out/lint" 2>&1 &
lint=$!
wait "$typecheck"
typecheck_status=$?
wait "$format"
format_status=$?
wait "$lint"
lint_status=$?
echo "> npm run typecheck"
cat "$out/typecheck"
echo "> npm run format:check"
cat "$out/format"
echo "> npm run lint"
cat "$out/lint"
if [ "$typecheck_status" -ne 0 ] || [ "$format_status" -ne 0 ] || [ "$lint_status" -ne 0 ]; then
  echo "static checks failed: typecheck exit $typecheck_status, format:check exit $format_status, lint exit $lint_status" >&2
  exit 1
fi
