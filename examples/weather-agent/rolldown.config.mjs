// The container's one entry point: src/main.ts and everything it imports, in dist/main.mjs (with
// dist/main.mjs.map beside it), which `npm start` and the Dockerfile run, and beside it the chunks
// it imports only on demand (the session database's code, with MikroORM's import; a few that its
// dependencies import on some platforms). Node reads ~75 files at start instead of ~2,500
// (@google/adk and its dependencies, one by one), which more than halves the cold start to the
// first 200 and lowers the idle RSS (`npm run bench -- cold`). MikroORM (~300 files) loads from
// node_modules (below) only when AGENT_SESSION_SERVICE_URI names a database.
//
// Why rolldown: 1.x has no install script (esbuild's postinstall is one more script for npm 11's
// allowScripts to refuse or warn about), its engines are Node ^20.19 || >=22.12 as this package's
// are, it is kept by the Vite team (Vite 8 bundles with it), and it reads TypeScript itself.
// Measured against esbuild on this example (same externals, interleaved runs on a busy machine):
// CPU to the first 200 within 5% of each other, esbuild's idle RSS about 5% lower; both bundles
// about halve the unbundled start.
// Type-checking is tsc's job: `npm run build` runs it first.
//
// Left external, and installed by the production install:
// - the packages @google/adk or @agentgen/agent-app load only when a feature asks for them (the
//   database drivers of AGENT_SESSION_SERVICE_URI, Cloud Storage for artifacts, the Cloud
//   exporters, MCP, express): optional peers, loaded by name from node_modules when present;
// - MikroORM, which finds its drivers and its own package.json on disk;
// - @opentelemetry/api: one copy for the whole process, the one an SDK you register also sees
//   (the runtime loads it by name, optionally);
// - the optional native helpers ws and node-fetch try to `require` and do without (bufferutil,
//   utf-8-validate, encoding): not installed unless you add them.
// Source maps: `node --enable-source-maps dist/main.mjs` maps stack traces to the sources; not on
// by default, as reading the 8 MB map doubles the start time and the RSS.
const external = [
  '@mikro-orm/',
  'pg',
  'pg-native',
  'mysql2',
  'mariadb',
  'tedious',
  'better-sqlite3',
  'sqlite3',
  'libsql',
  'knex',
  '@google-cloud/storage',
  '@google-cloud/opentelemetry-cloud-monitoring-exporter',
  '@google-cloud/opentelemetry-cloud-trace-exporter',
  '@modelcontextprotocol/sdk',
  'express',
  '@opentelemetry/api',
  'bufferutil',
  'utf-8-validate',
  'encoding',
];

/**
 * ADK's index re-exports its database session service, which imports MikroORM: without this, the
 * bundle would import @mikro-orm/core at every start (~300 files, ~370 ms of CPU, about 40% of the
 * start) even with sessions in memory. These modules only define things (classes, the schema's
 * entities, the URI registry): marked free of side effects, the index's unused re-exports of them
 * drop out, and they go with AgentApp's database sessions into the chunk loaded on demand. Only
 * these: ADK's other modules register models and the like when imported.
 */
const adkDatabaseModules = [
  {
    test: /[\\/]@google[\\/]adk[\\/]dist[\\/]esm[\\/]sessions[\\/](?:database_session_service|registry|db[\\/][^\\/]+)\.js$/,
    sideEffects: false,
  },
];

/** A package name matches itself and its subpaths; a name ending in `/` is a whole scope. */
const isExternal = (id) => external.some((name) => (name.endsWith('/') ? id.startsWith(name) : id === name || id.startsWith(`${name}/`)));

export default {
  input: 'src/main.ts',
  platform: 'node',
  external: isExternal,
  // The oldest Node the package supports (engines: ^20.19.0 || >=22.12.0).
  transform: { target: 'node20' },
  treeshake: { moduleSideEffects: adkDatabaseModules },
  // ESM; rolldown gives the CommonJS dependencies a `require` from `createRequire(import.meta.url)`.
  // The entry is dist/main.mjs; what it imports only on demand (the session database's code) is a
  // chunk beside it, loaded from there when a database is named: every dist/*.mjs is the bundle.
  output: { dir: 'dist', entryFileNames: 'main.mjs', chunkFileNames: '[name].mjs', format: 'esm', sourcemap: true },
};
