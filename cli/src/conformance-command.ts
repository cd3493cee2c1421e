/** `conformance`: the black-box container checker, with the operations and schemas of a spec. */
import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import {
  type CaseResult,
  type ConformanceA2A,
  type ConformanceOperation,
  conformancePassed,
  formatConformanceJson,
  formatConformanceJunit,
  formatConformanceTable,
  runConformance,
} from '../../conformance/index.js';
import type { JsonSchema } from '../../contract/index.js';
import { type A2AFaceModel, loadModel, type Model, manifestOf } from '../../generator/index.js';
import type { Io } from './io.js';
import type { Verb } from './verb.js';

const formats = ['text', 'json', 'junit'] as const;
type Format = (typeof formats)[number];

interface Args {
  readonly url: string;
  readonly spec?: string;
  readonly samples?: string;
  readonly timeout: number;
  readonly format: Format;
  readonly strict: boolean;
}

export async function conformanceCommand(args: Args, io: Io): Promise<number> {
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  const model = await loadModel(spec, io.cwd);
  const samples = args.samples === undefined ? undefined : await readSamples(resolvePath(io.cwd, args.samples));
  const results = await runConformance({
    url: args.url,
    operations: await conformanceOperations(model),
    schemas: conformanceSchemas(model),
    samples,
    timeoutMs: args.timeout,
    ...(model.a2a === undefined ? {} : { a2a: conformanceA2A(model.a2a) }),
  });
  const print = { text: formatConformanceTable, json: formatConformanceJson, junit: formatConformanceJunit }[args.format];
  io.stdout(print(results, args.strict) + (args.format === 'text' ? samplesHint(results) : ''));
  return conformancePassed(results, args.strict) ? 0 : 1;
}

/**
 * The text report's last lines when a case that needs a successful call did not pass: the inputs
 * built from the schemas may make no sense to the agent (an id that does not exist, a value a
 * pattern allows but a tool refuses), and --samples gives real ones. Each line fits 100 columns.
 */
export function samplesHint(results: readonly CaseResult[]): string {
  const count = results.filter((r) => r.successPath && r.status !== 'pass').length;
  if (count === 0) return '';
  return [
    '',
    `hint: ${count} ${count === 1 ? 'case' : 'cases'} that need a successful call did not pass. Inputs built from the schemas`,
    '  may make no sense to the agent; --samples FILE gives your own: a JSON object of operation name',
    '  → input, e.g. {"get_session": {"user_id": "u1", "session_id": "s1"}}',
    '',
  ].join('\n');
}

/** The manifest entries of a model, with the spec's input and output schemas the checker builds inputs from and checks results with. */
/** The spec's A2A face as the checker takes it; the stream cases send the first skill example, as a caller would. */
export function conformanceA2A(a2a: A2AFaceModel): ConformanceA2A {
  const example = a2a.card.skills.flatMap((skill) => skill.examples ?? [])[0];
  return { mount: a2a.mount, protocolVersions: a2a.protocolVersions, streaming: a2a.card.streaming, message: example ?? 'hello' };
}

export async function conformanceOperations(model: Model): Promise<ConformanceOperation[]> {
  const manifest = await manifestOf(model);
  return model.operations.map((op, i) => ({ ...manifest[i]!, input: op.input, output: op.output }));
}

/** The model's named schemas (the contract's and the spec's), by name, as its `$ref`s name them. */
export function conformanceSchemas(model: Model): Record<string, JsonSchema> {
  return Object.fromEntries(model.schemas.map((s) => [s.name, s.schema]));
}

async function readSamples(path: string): Promise<Record<string, Record<string, unknown>>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`--samples ${path}: ${(error as Error).message}`);
  }
  const valid =
    parsed !== null &&
    typeof parsed === 'object' &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
  if (!valid) throw new Error(`--samples ${path}: expected a JSON object of operation name → input object`);
  return parsed as Record<string, Record<string, unknown>>;
}

export const conformanceVerb: Verb = {
  register: (parser, run, describe) =>
    parser.command(
      'conformance',
      describe,
      (y) =>
        y
          .option('url', { type: 'string', demandOption: true, describe: 'Base URL of the container, e.g. http://127.0.0.1:8080.' })
          .option('spec', { type: 'string', describe: 'Spec whose operations the container declares. Default: ./agentgen.yaml, else the standard surface.' })
          .option('samples', { type: 'string', describe: 'JSON file: operation name → a valid input, used instead of the input built from its schema.' })
          .option('timeout', { type: 'number', default: 10_000, describe: 'Per-request time-out in ms.' })
          .option('format', { choices: formats, default: 'text' as Format, describe: 'Report: a text table, JSON, or JUnit XML.' })
          .option('strict', { type: 'boolean', default: false, describe: 'Exit 1 on advice too, not only on violations.' }),
      run(conformanceCommand),
    ),
};
