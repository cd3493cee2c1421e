/**
 * The one builder of generated TypeScript (generator/emit/generated-file.ts): no import is
 * written by hand, so what it imports must follow from what the statements use, case by case.
 */
import { describe, expect, it } from 'vitest';
import { code, GeneratedFile, importSymbol } from '../../generator/emit/generated-file.js';

const runtime = { specifier: '@agentgen/runtime/codegenv1/server', note: 'the runtime' };
const local = { specifier: './types.js' };
const createContainer = importSymbol('createContainer', runtime);
const AgentServer = importSymbol('AgentServer', runtime, { typeOnly: true });
const T = importSymbol('T', local, { namespace: true, typeOnly: true });
const z = importSymbol('z', { specifier: 'zod/mini' }, { namespace: true });

/** The file's text under a one-line header, without the header. */
function printed(build: (f: GeneratedFile) => void): string {
  const f = new GeneratedFile('case.ts');
  build(f);
  return f.print('// header').replace('// header\n\n', '');
}

describe('GeneratedFile', () => {
  const cases: [string, (f: GeneratedFile) => void, string][] = [
    ['nothing used: no import', (f) => f.add('export const a = 1;'), 'export const a = 1;\n'],
    [
      'a value used: a value import, with its note',
      (f) => f.add(code`export const s = ${createContainer}();`),
      "// the runtime\nimport { createContainer } from '@agentgen/runtime/codegenv1/server';\n\nexport const s = createContainer();\n",
    ],
    [
      'only types used: import type',
      (f) => f.add(code`export type S = ${AgentServer};`),
      "// the runtime\nimport type { AgentServer } from '@agentgen/runtime/codegenv1/server';\n\nexport type S = AgentServer;\n",
    ],
    [
      'a type and a value of one module: one import, the type marked, names sorted',
      (f) => f.add(code`export const s: ${AgentServer} = ${createContainer}();`),
      "// the runtime\nimport { type AgentServer, createContainer } from '@agentgen/runtime/codegenv1/server';\n\nexport const s: AgentServer = createContainer();\n",
    ],
    [
      'a namespace used as a type only (said by the use, or by a type-only symbol): import type *',
      (f) => f.add(`export type A = ${f.use(z, true)}.ZodMiniType;`, code`export type B = ${T}.Session;`),
      "import type * as z from 'zod/mini';\nimport type * as T from './types.js';\n\nexport type A = z.ZodMiniType;\nexport type B = T.Session;\n",
    ],
    [
      'a symbol used as a value once makes its import a value import',
      (f) => {
        f.use(z, true);
        f.add(code`export const a = ${z}.string();`);
      },
      "import * as z from 'zod/mini';\n\nexport const a = z.string();\n",
    ],
    [
      "packages before the output's own modules, each imported once",
      (f) => f.add(code`export type A = ${T}.A | ${T}.B;`, code`export const b = ${createContainer}(${createContainer});`),
      "// the runtime\nimport { createContainer } from '@agentgen/runtime/codegenv1/server';\nimport type * as T from './types.js';\n\nexport type A = T.A | T.B;\nexport const b = createContainer(createContainer);\n",
    ],
    [
      're-exports: sorted names, one statement per module and kind; star re-exports',
      (f) => {
        f.reexport([importSymbol('b', runtime), importSymbol('a', runtime)], { typeOnly: false });
        f.reexportAll(local, { typeOnly: true });
      },
      "export { a, b } from '@agentgen/runtime/codegenv1/server';\nexport type * from './types.js';\n",
    ],
  ];
  it.each(cases)('%s', (_name, build, expected) => expect(printed(build)).toBe(expected));

  it('says a note once when several modules share it', () => {
    const other = { specifier: '@agentgen/runtime/codegenv1/client', note: 'the runtime' };
    const text = printed((f) => f.add(code`export const a = [${createContainer}, ${importSymbol('createClientCore', other)}];`));
    expect(text.match(/\/\/ the runtime/g)).toHaveLength(1);
  });

  it('prints the same bytes whatever order the symbols were first used in', () => {
    const one = printed((f) => f.add(code`export const a = [${createContainer}, ${z}];`, code`export type B = ${AgentServer};`));
    const two = printed((f) => {
      f.use(AgentServer);
      f.use(z);
      f.add(code`export const a = [${createContainer}, ${z}];`, code`export type B = ${AgentServer};`);
    });
    expect(two).toBe(one);
  });

  it('refuses to print what does not parse (a generator bug is never written)', () => {
    expect(() => printed((f) => f.add('export const = ;'))).toThrow(/does not parse/);
  });
});
