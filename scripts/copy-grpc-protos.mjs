// Copies the .proto files `agentgen dev`'s gRPC face loads into emulator/proto/protos/, unmodified
// (license headers included), from the packages Google publishes them in: the aiplatform service
// definitions from @google-cloud/aiplatform (the current major, installed as `aiplatform-v7`), their google/api, google/rpc and google/longrunning
// imports from the google-gax that package depends on. Only the import closure of the served
// services is copied; google/protobuf/* is not, because the face loads protobufjs's own copies of
// those files (emulator/proto/protos.ts).
//
//   node scripts/copy-grpc-protos.mjs          refresh the copies (after updating aiplatform-v7)
//   node scripts/copy-grpc-protos.mjs stage    put the copies into cli/dist/ (the cli build runs this)
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const shipped = fileURLToPath(new URL('../emulator/proto/protos/', import.meta.url));

/** The service files the gRPC face serves; everything else is their import closure. */
export const rootProtos = [
  'google/cloud/aiplatform/v1/reasoning_engine_execution_service.proto',
  'google/cloud/aiplatform/v1/reasoning_engine_service.proto',
  'google/cloud/aiplatform/v1beta1/reasoning_engine_execution_service.proto',
  'google/cloud/aiplatform/v1beta1/reasoning_engine_service.proto',
  'google/cloud/aiplatform/v1/session_service.proto',
  'google/cloud/aiplatform/v1beta1/session_service.proto',
  'google/cloud/aiplatform/v1beta1/memory_bank_service.proto',
  'google/cloud/aiplatform/v1beta1/reasoning_engine_runtime_revision_service.proto',
  'google/longrunning/operations.proto',
];

/** Where each published file lives: aiplatform's own tree first, then google-gax's common protos. */
export function sourceDirs() {
  const require = createRequire(import.meta.url);
  // The current major, under its npm alias (package.json): 7.x needs Node.js 22 to run, but its
  // .proto files are what dev's checks read; the in-process tests keep 6.x's client for Node.js 20.
  const aiplatform = dirname(require.resolve('aiplatform-v7/package.json'));
  const gax = packageRoot(createRequire(join(aiplatform, 'package.json')).resolve('google-gax'), 'google-gax');
  return [join(aiplatform, 'build', 'protos'), join(gax, 'build', 'protos')];
}

/** The folder of the package `name` that holds `file` (google-gax exports no package.json). */
function packageRoot(file, name) {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === name) return dir;
  }
  throw new Error(`copy-grpc-protos: no package.json of ${name} above ${file}`);
}

/** True for files the loader never reads from disk (protobufjs bundles them). */
export const bundledByLoader = (path) => path.startsWith('google/protobuf/');

/** The import closure of `rootProtos` (sorted), each with the installed file it comes from. */
export function protoClosure(dirs = sourceDirs()) {
  const found = new Map();
  const pending = [...rootProtos];
  while (pending.length > 0) {
    const path = pending.pop();
    if (found.has(path) || bundledByLoader(path)) continue;
    const from = dirs.map((dir) => join(dir, path)).find((file) => existsSync(file));
    if (from === undefined) throw new Error(`copy-grpc-protos: ${path} is in no installed package (${dirs.join(', ')})`);
    found.set(path, from);
    for (const match of readFileSync(from, 'utf8').matchAll(/^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;/gm)) pending.push(match[1]);
  }
  return [...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, from]) => ({ path, from }));
}

function refresh() {
  rmSync(shipped, { recursive: true, force: true });
  for (const { path, from } of protoClosure()) {
    mkdirSync(dirname(join(shipped, path)), { recursive: true });
    writeFileSync(join(shipped, path), readFileSync(from));
  }
}

function stage() {
  const target = fileURLToPath(new URL('../cli/dist/emulator/proto/protos/', import.meta.url));
  rmSync(target, { recursive: true, force: true });
  cpSync(shipped, target, { recursive: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const action = process.argv[2];
  if (action === undefined) refresh();
  else if (action === 'stage') stage();
  else throw new Error(`usage: copy-grpc-protos.mjs [stage] (got ${JSON.stringify(action)})`);
}
