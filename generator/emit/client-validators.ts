/**
 * `client-validators.ts`: the validators `client.ts` calls, in zod/mini, so that a browser bundle
 * of the client stays small (zod/mini is functions a bundler drops when unused; classic zod's
 * methods cannot be dropped). Only what the client's table needs: each unary operation's input
 * and result, each stream operation's input, and the named schemas they reach. Built by the same
 * translation as `validators.ts` (`buildZod`), so each schema follows the same rules; each is
 * checked by `tsc` against its type in `types.ts` (`satisfies Produces<T.X>`, as in `validators.ts`).
 *
 * zod/mini registers no error messages of its own: the English ones classic zod uses are
 * registered here unless a locale is already configured, so errors read the same in both.
 */
import type { Assets } from '../assets.js';
import type { EmittedFile, Model } from '../model.js';
import { withHeader } from './header.js';
import { runtimeModule } from './runtime-imports.js';
import { producesDeclaration, schemaDeclaration, zodMiniExpression, type Helper, type ZodTextContext } from './schema-to-zod.js';

export function emitClientValidators(model: Model, assets: Assets): EmittedFile {
  const helpers = new Set<Helper>();
  const byName = new Map(model.schemas.map((s) => [s.name, s]));
  /** The named schemas reached so far, and those whose text is still to be built. */
  const reached = new Set<string>();
  const pending: string[] = [];
  const context = (cycle: readonly string[]): ZodTextContext => ({
    helpers,
    named: (name) => {
      if (!reached.has(name)) {
        reached.add(name);
        pending.push(name);
      }
      return { schemaConst: byName.get(name)!.schemaConst, lazy: cycle.includes(name) };
    },
  });
  const operations = model.operations.flatMap((op) => [
    schemaConst(op.names.inputSchema, op.names.inputType, op.names.callInputType, zodMiniExpression(op.input, context([])), `Validates the keyword arguments of \`${op.name}\`.`),
    ...(op.routing.response === 'unary'
      ? [schemaConst(op.names.outputSchema, op.names.outputType, op.names.outputType, zodMiniExpression(op.output, context([])), `Validates the result of \`${op.name}\`.`)]
      : []),
  ]);
  const namedText = new Map<string, string>();
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    const s = byName.get(name)!;
    namedText.set(name, schemaConst(s.schemaConst, s.name, s.inputName, zodMiniExpression(s.schema, context(s.cycle)), s.schema.description, s.cycle.length > 0));
  }
  // In the model's order: a schema comes after those it refers to outside a cycle.
  const named = (origin: 'contract' | 'spec') => model.schemas.filter((s) => s.origin === origin && namedText.has(s.name)).map((s) => namedText.get(s.name)!);
  const contract = named('contract');
  const spec = named('spec');
  const statements: string[] = [
    "import * as z from 'zod/mini';",
    "import { en } from 'zod/v4/locales';",
    // The runtime's helpers: the same functions agentgen's spec check runs.
    ...(helpers.size > 0 ? [`import { ${[...helpers].sort().join(', ')} } from '${runtimeModule(model, 'validation')}';`] : []),
    "import type * as T from './types.js';",
    // Declared only where used: a project with noUnusedLocals would reject it otherwise.
    ...([...contract, ...spec, ...operations].some((text) => text.includes(' satisfies Produces<')) ? [producesDeclaration] : []),
    '',
    "// zod/mini has no messages by default: classic zod's English ones, unless a locale is set.",
    'if (z.config().localeError === undefined) z.config(en());',
    ...(contract.length > 0 ? ["\n// The contract's named schemas.", ...contract] : []),
    ...(spec.length > 0 ? ["\n// The spec's schemas.", ...spec] : []),
    '\n// Operations.',
    ...operations,
  ];
  return { path: 'client-validators.ts', contents: withHeader(model, assets, `${statements.join('\n')}\n`) };
}

function schemaConst(name: string, typeName: string, inputTypeName: string, expression: string, doc: string | undefined, recursive = false): string {
  return schemaDeclaration('z.ZodMiniType', { name, typeName, inputTypeName, expression, doc, recursive });
}
