// Preloaded (`node --import`) into a bench server: `@agentgen/runtime/...` resolves to the build
// in $AGENTGEN_BASELINE_RUNTIME (the committed runtime, built by server-throughput.mjs --otel
// absent), so the same generated server runs on the runtime before and after a change.
import { register } from 'node:module';

register(new URL('./head-runtime-hooks.mjs', import.meta.url), { data: { root: process.env.AGENTGEN_BASELINE_RUNTIME } });
