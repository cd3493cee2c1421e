/**
 * `breaking OLD NEW`: the changes between two surfaces that break callers, as `buf breaking` and
 * `oasdiff breaking` report them. OLD and NEW are spec files or manifests (`class-methods.json`,
 * or a REST body); with `--deployed`, OLD is the live resource's `classMethods`, found with the
 * spec's `deploy:` section as `agentgen deploy` finds it. Exit 0: nothing breaks; 1: something
 * does; 2: the inputs could not be compared.
 */
import { readFile } from 'node:fs/promises';
import { basename, resolve as resolvePath } from 'node:path';
import { loadModel, manifestOf, SpecError } from '../../generator/index.js';
import { compareSurfaces } from './breaking/compare-surfaces.js';
import { reportJson, reportTable } from './breaking/report.js';
import { type Surface, surfaceFromManifest, surfaceFromModel } from './breaking/surface.js';
import type { Redactor } from './deploy/redact.js';
import { accessTokenEnvOption, apiEndpointOption } from './deploy-options.js';
import type { Io } from './io.js';
import { withRedactedOutput } from './redacted-output.js';
import { UsageError } from './usage-error.js';
import type { Verb } from './verb.js';

interface Args {
  readonly old?: string;
  readonly new?: string;
  readonly format: 'table' | 'json';
  readonly deployed: boolean;
  readonly 'api-endpoint'?: string;
  readonly 'access-token-env'?: string;
}

/** A manifest is JSON holding a list (or an object with `spec.classMethods`); anything else is read as a spec. */
async function readSurface(file: string, cwd: string): Promise<Surface> {
  const path = resolvePath(cwd, file);
  const label = basename(path);
  if (path.endsWith('.json')) {
    const text = await readFile(path, 'utf8').catch((error: Error) => {
      throw new Error(`${file}: cannot read: ${error.message}`);
    });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file}: not JSON: ${(error as Error).message}`);
    }
    const isSpec = json !== null && typeof json === 'object' && !Array.isArray(json) && 'agentgen' in json;
    if (!isSpec) return surfaceFromManifest(json, label);
  }
  const model = await loadModel(path, cwd);
  return surfaceFromModel(model, await manifestOf(model), label);
}

/** The live resource's `classMethods`, found as `agentgen deploy` finds the resource. */
async function deployedSurface(specFile: string | undefined, args: Args, io: Io, redactor: Redactor): Promise<Surface> {
  const [{ loadDeployTarget }, { defaultApiEndpoint }, { findDeployed }, { ReasoningEnginesClient }, { tokenSource }] = await Promise.all([
    import('./deploy-target.js'),
    import('../../contract/reasoning-engine.js'),
    import('./deploy/deploy.js'),
    import('./deploy/reasoning-engines-client.js'),
    import('./deploy/access-token.js'),
  ]);
  const { deploy } = await loadDeployTarget(specFile === undefined ? undefined : resolvePath(io.cwd, specFile), io.cwd, process.env, ['project', 'location']);
  const client = new ReasoningEnginesClient({
    endpoint: args['api-endpoint'] ?? defaultApiEndpoint(deploy.location!),
    token: tokenSource(args['access-token-env'], process.env, redactor),
  });
  const resource = await findDeployed(client, deploy);
  if (resource === undefined) throw new Error(`no deployed reasoningEngine named ${JSON.stringify(deploy.displayName)}: nothing to compare against`);
  return surfaceFromManifest(resource, `deployed ${resource.name}`);
}

/**
 * Everything it prints and throws has the token and token-shaped text redacted (what `--deployed`
 * needs; two files hold no token, and a surface's names cannot look like one).
 */
export function breakingCommand(args: Args, io: Io): Promise<number> {
  return withRedactedOutput(io, (redacted, redactor) => compare(args, redacted, redactor));
}

async function compare(args: Args, io: Io, redactor: Redactor): Promise<number> {
  let before: Surface;
  let after: Surface;
  try {
    if (args.deployed) {
      if (args.new !== undefined) throw new UsageError('with --deployed, name one spec file (the new side); the old side is the deployed resource');
      before = await deployedSurface(args.old, args, io, redactor);
      after = await readSurface(args.old ?? 'agentgen.yaml', io.cwd);
    } else {
      if (args.old === undefined || args.new === undefined) throw new UsageError('name two files: agentgen breaking OLD NEW (or --deployed [SPEC])');
      [before, after] = await Promise.all([readSurface(args.old, io.cwd), readSurface(args.new, io.cwd)]);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    io.stderr(error instanceof SpecError ? `${error.message}\n` : `agentgen breaking: ${(error as Error).message}\n`);
    return 2;
  }
  const comparison = compareSurfaces(before, after);
  io.stdout((args.format === 'json' ? reportJson : reportTable)(comparison, before, after));
  return comparison.changes.some((c) => c.breaking) ? 1 : 0;
}

export const breakingVerb: Verb = {
  register: (parser, run, describe) =>
    parser.command(
      'breaking [old] [new]',
      describe,
      (y) =>
        y
          .positional('old', { type: 'string', describe: 'The old side: a spec file or a manifest JSON (with --deployed: the spec, default ./agentgen.yaml).' })
          .positional('new', { type: 'string', describe: 'The new side: a spec file or a manifest JSON.' })
          .option('format', { type: 'string', choices: ['table', 'json'], default: 'table', describe: 'A table for people, or JSON for CI.' })
          .option('deployed', { type: 'boolean', default: false, describe: "Compare the deployed resource's classMethods (old) with the spec (new)." })
          .option('api-endpoint', apiEndpointOption)
          .option('access-token-env', accessTokenEnvOption),
      (argv) => run(breakingCommand)(argv as unknown as Args),
    ),
};
