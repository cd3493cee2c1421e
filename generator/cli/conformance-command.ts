/** `conformance`: the black-box container checker, with the operations of a spec's manifest. */
import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { conformancePassed, formatConformanceTable, runConformance } from '../../conformance/index.js';
import { buildManifest } from '../emit/manifest.js';
import type { Io } from './io.js';
import { loadModel } from './pipeline.js';
import type { Verb } from './verb.js';

interface Args {
  readonly url: string;
  readonly spec?: string;
  readonly samples?: string;
  readonly timeout: number;
}

export async function conformanceCommand(args: Args, io: Io): Promise<number> {
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  const operations = buildManifest(await loadModel(spec, io.cwd));
  const samples = args.samples === undefined ? undefined : await readSamples(resolvePath(io.cwd, args.samples));
  const results = await runConformance({ url: args.url, operations, samples, timeoutMs: args.timeout });
  io.stdout(`${formatConformanceTable(results)}\n`);
  return conformancePassed(results) ? 0 : 1;
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
          .option('samples', { type: 'string', describe: 'JSON file: operation name → a valid input, to check results and streams too.' })
          .option('timeout', { type: 'number', default: 10_000, describe: 'Per-request time-out in ms.' }),
      run(conformanceCommand),
    ),
};
