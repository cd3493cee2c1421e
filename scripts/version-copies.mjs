// The one version of the four published packages (@agentgen/runtime, @agentgen/agent-app,
// @agentgen/cli, create-agentgen: released together, in lockstep) is the root package.json's
// `version`. Every other place that has to name it is a copy, listed here: each package's version,
// the ranges by which they (and the example) depend on each other, the generator's version, the
// runtime range generated code names, and the lockfile's record of the workspaces (`npm ci` fails
// when it disagrees with the package.json files). scripts/version.mjs sets and checks them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A version npm can publish: MAJOR.MINOR.PATCH, optionally -PRERELEASE (no build metadata, no leading zeros). */
const versionSyntax = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export const versionSource = { file: 'package.json', field: 'version' };

/** Throws a clear error unless `version` is a publishable version. */
export function assertVersion(version, where = 'the version') {
  if (typeof version !== 'string' || !versionSyntax.test(version)) {
    throw new Error(`${where} must be MAJOR.MINOR.PATCH or MAJOR.MINOR.PATCH-PRERELEASE (like 1.4.0 or 1.4.0-rc.1); got ${JSON.stringify(version)}`);
  }
  return version;
}

const exact = (version) => version;
const caret = (version) => `^${version}`;

/** A copy inside a JSON file (its parsed document), at a path of keys. */
function jsonCopy(file, keys, expected) {
  return {
    where: `${file} ${keys.map((key) => `[${JSON.stringify(key)}]`).join('')}`,
    file,
    expected,
    read(document) {
      let value = document;
      for (const key of keys) value = value?.[key];
      return typeof value === 'string' ? value : undefined;
    },
    write(document, version) {
      let parent = document;
      for (const key of keys.slice(0, -1)) {
        if (parent[key] === undefined || typeof parent[key] !== 'object')
          throw new Error(`${file}: no ${JSON.stringify(key)} object to write the version into`);
        parent = parent[key];
      }
      parent[keys.at(-1)] = expected(version);
      return document;
    },
  };
}

/** A copy inside a TypeScript file (its text): the single-quoted string of one declaration (`before` is the text up to its quote). */
function sourceCopy(file, before, expected) {
  const pattern = new RegExp(`^(${before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}')([^']*)(';)$`, 'm');
  return {
    where: `${file} (${before.trim()} …)`,
    file,
    expected,
    read(text) {
      return pattern.exec(text)?.[2];
    },
    write(text, version) {
      if (!pattern.test(text)) throw new Error(`${file}: no line \`${before}'…';\` to write the version into`);
      return text.replace(pattern, (_line, head, _old, tail) => `${head}${expected(version)}${tail}`);
    },
  };
}

/** The lockfile's record of one workspace (its folder) and of the package.json below. */
function packageCopies(folder, versioned, dependencies) {
  const copies = [];
  for (const [file, at] of [
    [`${folder}/package.json`, []],
    ['package-lock.json', ['packages', folder]],
  ]) {
    if (versioned) copies.push(jsonCopy(file, [...at, 'version'], exact));
    for (const [field, name, expected] of dependencies) copies.push(jsonCopy(file, [...at, field, name], expected));
  }
  return copies;
}

/** Every copy of the version, besides the root package.json's own. */
export const versionCopies = [
  jsonCopy('package-lock.json', ['version'], exact),
  jsonCopy('package-lock.json', ['packages', '', 'version'], exact),
  ...packageCopies('runtime', true, []),
  ...packageCopies('agent-app', true, [['dependencies', '@agentgen/runtime', caret]]),
  ...packageCopies('cli', true, [['dependencies', '@agentgen/runtime', caret]]),
  // Pinned: `npm create agentgen@X` runs the `agentgen init` of @agentgen/cli X.
  ...packageCopies('create-agentgen', true, [['dependencies', '@agentgen/cli', exact]]),
  // The example has a version of its own; its @agentgen dependencies are the workspaces.
  ...packageCopies('examples/weather-agent', false, [
    ['dependencies', '@agentgen/agent-app', caret],
    ['dependencies', '@agentgen/runtime', caret],
    ['devDependencies', '@agentgen/cli', caret],
  ]),
  // The Next.js example is no workspace (it installs its own Next.js and AI SDK): its package.json alone.
  jsonCopy('examples/next-chat/package.json', ['dependencies', '@agentgen/runtime'], caret),
  jsonCopy('examples/next-chat/package.json', ['devDependencies', '@agentgen/cli'], caret),
  // Written into every generated header, and the version `agentgen --version` prints.
  sourceCopy('generator/version.ts', 'export const generatorVersion = ', exact),
];

/** A file as the copies in it read it: JSON parsed (and written back in the layout npm uses), anything else as text. */
const decode = (file, text) => (file.endsWith('.json') ? JSON.parse(text) : text);
const encode = (file, document) => (file.endsWith('.json') ? `${JSON.stringify(document, null, 2)}\n` : document);

function load(root, file) {
  return decode(file, readFileSync(join(root, file), 'utf8'));
}

/** The one version: the root package.json's. */
export function readVersion(root) {
  return assertVersion(load(root, versionSource.file)[versionSource.field], `${versionSource.file}'s "${versionSource.field}"`);
}

/** The copies that do not say what the version makes them: [{ where, found, expected }]. */
export function versionDisagreements(root, version = readVersion(root)) {
  const documents = new Map();
  const document = (file) => documents.get(file) ?? documents.set(file, load(root, file)).get(file);
  return versionCopies
    .map((copy) => ({ where: copy.where, found: copy.read(document(copy.file)), expected: copy.expected(version) }))
    .filter(({ found, expected }) => found !== expected);
}

/** Writes `version` into the root package.json and every copy; returns the files written. */
export function setVersion(root, version) {
  assertVersion(version);
  const manifest = load(root, versionSource.file);
  manifest[versionSource.field] = version;
  const documents = new Map([[versionSource.file, manifest]]);
  for (const copy of versionCopies) {
    documents.set(copy.file, copy.write(documents.get(copy.file) ?? load(root, copy.file), version));
  }
  // Every copy is written in memory first: one that cannot be written leaves every file alone.
  for (const [file, document] of documents) writeFileSync(join(root, file), encode(file, document));
  return [...documents.keys()];
}
