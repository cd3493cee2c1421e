#!/usr/bin/env node
// `npm run packs:serve`: the four packages of this checkout as a registry would serve them, before
// the first release puts them on npm. They are packed once for this state of the sources
// (scripts/packed-packages.mjs: each prepack builds its package in a copy of the checkout, the
// tarballs kept in node_modules/.cache/agentgen-packed/), then served on 127.0.0.1 with every
// other package from https://registry.npmjs.org/ (scripts/local-registry.mjs, as `npm run
// release:check` serves them), until Ctrl-C. It prints the registry's address and the commands
// that use it: `npm create agentgen` and `npm i @agentgen/cli` then work as they will once the
// packages are published, in any folder of the machine.
//
//   node scripts/serve-packs.mjs
import { startLocalRegistry } from './local-registry.mjs';
import { packedOnce, repositoryRoot } from './packed-packages.mjs';
import { readVersion } from './version-copies.mjs';

const upstream = 'https://registry.npmjs.org/';
if (process.argv.length > 2) {
  console.error(`unknown argument ${JSON.stringify(process.argv[2])}\nusage: node scripts/serve-packs.mjs`);
  process.exit(2);
}

const version = readVersion(repositoryRoot);
console.log(`[packs:serve] packing the packages of agentgen ${version} (once for this state of the sources)...`);
const packed = await packedOnce();
const registry = await startLocalRegistry(packed, { upstream });
console.log(`[packs:serve] ${[...packed.keys()].join(', ')} ${version} at ${registry.url}
(every other package from ${upstream}). In another terminal, in any folder:

  export npm_config_registry=${registry.url}
  npm create agentgen@latest my-agent -- --yes
  cd my-agent && npm test

or in a project of yours: npm i -D @agentgen/cli. Ctrl-C stops the registry.`);

const stop = async () => {
  await registry.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
