/**
 * Real `tsc` over every golden output, as a user's ESM project compiles it (moduleResolution
 * NodeNext without DOM types, and Bundler) with the strictest flags a user may turn on (see
 * `strictestFlags`; the bundled runtime copy of test/fixtures/bundle is compiled under them too),
 * together with generated proof files:
 * - validators accept every value of their type and produce values of it (the `satisfies` in
 *   validators.ts is one direction; `agreement/*.ts` here is the other);
 * - the OpenAPI document, turned into types by openapi-typescript, describes the same inputs and
 *   results as types.ts (mutually assignable; a property with a default stays optional on input).
 * Each check runs under both compilers of test/tsc/compilers.mjs: TypeScript 5.9 (the repo's) and
 * TypeScript 7 (what `npm install -D typescript` gives users now). The declaration files the
 * runtime and AgentApp packages publish are checked the same way, with skipLibCheck off (under 5.9
 * through its API, so that only ours are type-checked: see ourDeclarationErrors).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildOpenApi } from '../../generator/emit/openapi.js';
import { type Compiler, compilers, runTsc, tscErrors } from '../tsc/compilers.mjs';
import { goldenCases, root } from './golden-cases.js';

const agreementDir = join(root, 'test/tsc/agreement');
const configs = ['nodenext', 'bundler'] as const;
/** A whole project check takes about 10 s with 5.9 on a shared core, under 1 s with 7. */
const tscTimeoutMs = 120_000;

/** Generated output must compile in a project with every one of these on. */
const strictestFlags = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitOverride: true,
  verbatimModuleSyntax: true,
  erasableSyntaxOnly: true,
};

/**
 * openapi-typescript writes an optional property as `x?: T`; types.ts writes `x?: T | undefined`,
 * as zod's `.optional()` infers it, and `exactOptionalPropertyTypes` tells the two apart. JSON has
 * no `undefined`, so both say the same of a document: the OpenAPI side gets the `| undefined` too.
 */
function optionalMayBeUndefined(property: ts.PropertySignature): ts.PropertySignature {
  if (property.questionToken === undefined || property.type === undefined) return property;
  const type = ts.factory.createUnionTypeNode([property.type, ts.factory.createKeywordTypeNode(ts.SyntaxKind.UndefinedKeyword)]);
  return ts.factory.updatePropertySignature(property, property.modifiers, property.name, property.questionToken, type);
}

beforeAll(async () => {
  rmSync(agreementDir, { recursive: true, force: true });
  mkdirSync(agreementDir, { recursive: true });
  for (const [index, golden] of goldenCases.entries()) {
    const { model } = golden.build();
    const out = relative(agreementDir, join(root, golden.outDir));
    const openapiTypes = astToString(
      await openapiTS(JSON.parse(JSON.stringify(buildOpenApi(model))), { defaultNonNullable: false, transformProperty: optionalMayBeUndefined }),
    );
    writeFileSync(join(agreementDir, `openapi-${index}.ts`), openapiTypes);
    // Each schema against the type of what a sender writes: a caller's input (defaults may be left
    // out), a result or event, a named schema's input form.
    const names = [
      ...model.operations.flatMap((op) => [
        { schema: op.names.inputSchema, type: op.names.callInputType, component: op.names.inputType },
        { schema: op.names.outputSchema, type: op.names.outputType, component: op.names.outputType },
      ]),
      ...model.schemas.filter((s) => s.origin === 'spec').map((s) => ({ schema: s.schemaConst, type: s.inputName, component: s.name })),
    ];
    const lines = [
      "import type * as z from 'zod/mini';",
      `import type * as T from '${out}/types.js';`,
      `import type * as v from './validators-${index}.js';`,
      `import type { components } from './openapi-${index}.js';`,
      'type Schemas = components["schemas"];',
      'type Accepts<V extends z.ZodMiniType, X> = [X] extends [z.input<V>] ? true : false;',
      'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
      ...names.map((n, i) => `export const accepts${i}: Accepts<typeof v.${n.schema}, T.${n.type}> = true;`),
      ...names.map((n, i) => `export const openapi${i}: Same<Schemas[${JSON.stringify(n.component)}], T.${n.type}> = true;`),
    ];
    writeFileSync(join(agreementDir, `agreement-${index}.ts`), `${lines.join('\n')}\n`);
    // validators.ts types each schema `z.ZodMiniType<Output, Input>` after checking what it produces
    // (cheap for tsc at scale), so its declared input proves nothing: the proofs read a copy with
    // zod's inferred types, the golden text less those casts.
    const validators = readFileSync(join(root, golden.outDir, 'validators.ts'), 'utf8');
    // Its relative imports name the golden's files, with `.js` (NodeNext) also where the golden
    // writes none (examples/next-chat: import_extension none, for bundlers).
    const inferred = validators
      .replace(/ as unknown as z\.ZodMiniType<[^;]*>;/g, ';')
      .replace(/ from '\.\/([^']+?)(?:\.js)?';/g, (_, file: string) => ` from '${out}/${file}.js';`);
    writeFileSync(join(agreementDir, `validators-${index}.ts`), inferred);
  }
});

test.each([...configs, 'published-types'])('the %s project carries the strictest flags', (config) => {
  const { compilerOptions } = JSON.parse(readFileSync(join(root, `test/tsc/tsconfig.${config}.json`), 'utf8')) as { compilerOptions: Record<string, unknown> };
  expect(compilerOptions).toMatchObject(strictestFlags);
});

/** Our declaration files: those in runtime/dist or agent-app/dist (paths relative to the working directory). */
const ourDeclarations = /^(runtime|agent-app)\/dist\//;

/** The errors of a run in our declaration files. */
function errorsInOurDeclarations(output: string): string[] {
  return tscErrors(output).filter((line) => ourDeclarations.test(line));
}

/**
 * The errors in our declaration files of `tsc -p project --pretty false` run in `cwd`. TypeScript 7
 * runs as that command. TypeScript 5.9 (the `typescript` this file imports) builds the same program
 * from the same tsconfig through its API, and type-checks only our files in it: with skipLibCheck
 * off the command also checks the thousand third-party declaration files the program reads (two
 * thirds of its time), whose errors are dropped here anyway. Each of our files is checked in full,
 * as the command checks it; the lines are formatted as the command prints them.
 */
async function ourDeclarationErrors(compiler: Compiler, project: string, cwd: string): Promise<string[]> {
  if (compiler.major !== 5) {
    const run = await runTsc(compiler, ['-p', project, '--pretty', 'false'], { timeoutMs: tscTimeoutMs, cwd });
    return errorsInOurDeclarations(run.output);
  }
  expect(ts.versionMajorMinor, `${compiler.name}: the typescript this file imports`).toMatch(/^5\./);
  const config = ts.getParsedCommandLineOfConfigFile(
    project.endsWith('.json') ? project : join(project, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, configFileParsingDiagnostics: config.errors });
  const ours = program.getSourceFiles().filter((file) => ourDeclarations.test(relative(cwd, file.fileName)));
  const diagnostics = ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]);
  const host = { getCurrentDirectory: () => cwd, getCanonicalFileName: (file: string) => file, getNewLine: () => '\n' };
  return errorsInOurDeclarations(ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), host));
}

describe.each(compilers)('$name', (compiler) => {
  test.each(configs)(
    'passes with the strictest flags over all golden output (%s)',
    async (config) => {
      const run = await runTsc(compiler, ['-p', join(root, `test/tsc/tsconfig.${config}.json`)], { timeoutMs: tscTimeoutMs });
      expect(run.output).toBe('');
      expect(run.status).toBe(0);
    },
    tscTimeoutMs,
  );

  // skipLibCheck off reaches into @google/adk's and @google/genai's own declarations too, which
  // miss optional peers (express, MCP) and DOM names under a Node project: those are not ours to
  // fix, so only diagnostics in runtime/dist and agent-app/dist count.
  test(
    'passes with the strictest flags over the published declaration files',
    async () => {
      for (const entry of ['runtime/dist/index.d.ts', 'agent-app/dist/src/index.d.ts']) {
        expect(existsSync(join(root, entry)), `${entry} is missing: npm run build writes it`).toBe(true);
      }
      expect(await ourDeclarationErrors(compiler, join(root, 'test/tsc/tsconfig.published-types.json'), root)).toEqual([]);
    },
    tscTimeoutMs,
  );

  test(
    'reports an error in a declaration file of ours (the filter above hides nothing of ours)',
    async () => {
      const dir = join(root, 'node_modules/.cache/agentgen-published-types-probe', compiler.major.toString());
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(join(dir, 'runtime/dist'), { recursive: true });
      writeFileSync(join(dir, 'runtime/dist/broken.d.ts'), 'export declare const broken: Missing;\n');
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ extends: join(root, 'test/tsc/tsconfig.published-types.json'), include: ['runtime/dist/*.d.ts'] }),
      );
      expect(await ourDeclarationErrors(compiler, dir, dir)).toEqual([
        expect.stringMatching(/^runtime\/dist\/broken\.d\.ts\(1,30\): error TS2304: Cannot find name 'Missing'/),
      ]);
    },
    tscTimeoutMs,
  );
});
