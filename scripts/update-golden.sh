#!/usr/bin/env bash
# Rewrites the golden files: the runtime's contract module (runtime/src/contract-schemas/),
# generated/ (the standard surface) and each fixture's expected/ folder.
# Review the diff like code before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
# The generator only: AgentApp is built from what this writes (agent-app/generated).
npm run --silent build -w @agentgen/runtime
npm run --silent build -w @agentgen/cli
# The contract's types and validators, which every output imports from the runtime; then the
# runtime again, so the generator's checks of generated code see them.
node scripts/write-runtime-contract.mjs
npm run --silent build -w @agentgen/runtime
node cli/bin/agentgen.js generate --standard-surface --out generated
for spec in test/fixtures/*/agentgen.yaml; do
  dir=$(dirname "$spec")
  node cli/bin/agentgen.js generate --spec "$spec" --out "$dir/expected"
done
for spec in examples/*/agentgen.yaml; do
  dir=$(dirname "$spec")
  node cli/bin/agentgen.js generate --spec "$spec" --out "$dir/generated"
done
# The surface AgentApp implements, generated as a user project's would be.
node cli/bin/agentgen.js generate --spec agent-app/agentgen.yaml --out agent-app/generated
