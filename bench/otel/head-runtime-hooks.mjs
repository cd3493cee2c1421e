// Module hooks of head-runtime.mjs: `@agentgen/runtime` and its subpaths to `<root>/dist/...`, as
// the package's `exports` map them.
import { pathToFileURL } from 'node:url';

const entries = {
  '': 'index.js',
  '/server': 'server/index.js',
  '/client': 'client/index.js',
  '/codegenv1/server': 'codegenv1/server.js',
  '/codegenv1/client': 'codegenv1/client.js',
  '/codegenv1/validation': 'codegenv1/validation.js',
};
let root;

export function initialize(data) {
  root = data.root;
}

export function resolve(specifier, context, next) {
  const match = /^@agentgen\/runtime(\/.*)?$/.exec(specifier);
  const entry = match === null ? undefined : entries[match[1] ?? ''];
  if (entry === undefined || root === undefined) return next(specifier, context);
  return { url: pathToFileURL(`${root}/dist/${entry}`).href, shortCircuit: true };
}
