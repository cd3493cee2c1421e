/**
 * `deploy`: the spec's create request, applied to the platform (see `deploy/deploy.ts` for the
 * steps). `--dry-run` prints the request and calls nothing. google-auth-library is loaded only
 * when a deploy calls the API without `--access-token-env`.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, posix, resolve as resolvePath } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { defaultApiEndpoint, parentOf, type ReasoningEngineBody } from '../../contract/reasoning-engine.js';
import { createRequestBody, queryCommand, summariseSource } from '../../generator/index.js';
import { printableText } from '../../terminal/printable-text.js';
import { tokenSource } from './deploy/access-token.js';
import { type DeployOutcome, runDeploy, runTrafficAction, type TrafficAction } from './deploy/deploy.js';
import { ReasoningEnginesApiError } from './deploy/reasoning-engines-api-error.js';
import { apiVersion, ReasoningEnginesClient } from './deploy/reasoning-engines-client.js';
import type { Redactor } from './deploy/redact.js';
import { describeSplit } from './deploy/revisions.js';
import { packSource, type SourceArchive, SourceArchiveError } from './deploy/source-archive.js';
import { deploySecretsNote, dryRunSourceReport } from './deploy/source-report.js';
import { accessTokenEnvOption, apiEndpointOption, positiveNumber } from './deploy-options.js';
import { loadDeployTarget } from './deploy-target.js';
import type { Io } from './io.js';
import { specOption } from './options.js';
import { withRedactedOutput } from './redacted-output.js';
import { UsageError } from './usage-error.js';
import { plainVerb } from './verb.js';

interface Args {
  readonly spec?: string;
  readonly 'dry-run': boolean;
  readonly 'allow-secret'?: readonly string[];
  readonly 'archive-out'?: string;
  readonly yes: boolean;
  readonly 'allow-breaking': boolean;
  readonly 'api-endpoint'?: string;
  readonly 'access-token-env'?: string;
  readonly 'poll-interval'?: string;
  readonly timeout?: string;
  readonly traffic?: string;
  readonly promote: boolean;
  readonly rollback: boolean;
  readonly status: boolean;
}

/** Exit codes beyond main's 0/1/2: a change refused because it breaks callers. */
export const exitRefusedBreaking = 3;

/** Everything it prints, and every error it throws, has the token and token-shaped text redacted. */
export function deployCommand(args: Args, io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return withRedactedOutput(io, (redacted, redactor) => runDeployCommand(args, redacted, env, redactor));
}

async function runDeployCommand(args: Args, io: Io, env: NodeJS.ProcessEnv, redactor: Redactor): Promise<number> {
  const intervalMs = positiveNumber('--poll-interval', args['poll-interval'], 5000);
  const timeoutMs = positiveNumber('--timeout', args.timeout, 1800) * 1000;
  const action = trafficAction(args);
  const traffic = trafficPercent(args.traffic);
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  const { model, deploy } = await loadDeployTarget(spec, io.cwd, env, ['project', 'location']);
  const endpoint = args['api-endpoint'] ?? defaultApiEndpoint(deploy.location!);
  const wait = { intervalMs, timeoutMs, progress: (line: string) => io.stderr(`agentgen deploy: ${line}\n`) };
  const confirmPlan = (plan: string) => confirm(redactor.redact(plan), args.yes, io);
  if (action !== undefined) {
    if (args['dry-run'])
      throw new UsageError(`--dry-run applies to a deploy; --${action} ${action === 'status' ? 'only reads' : 'moves traffic and sends nothing else'}`);
    const client = new ReasoningEnginesClient({ endpoint, token: tokenSource(args['access-token-env'], env, redactor) });
    return reportApiErrors(io, async () => {
      const outcome = await runTrafficAction({ client, deploy, confirm: confirmPlan, wait }, action);
      switch (outcome.kind) {
        case 'status':
          io.stdout(`${outcome.table}\n`);
          return 0;
        case 'moved':
          io.stdout(`${outcome.resource.name}: ${outcome.split === 'latest' ? 'every call goes to the newest revision' : describeSplit(outcome.split)}\n`);
          return 0;
        case 'refused':
          io.stderr(`agentgen deploy: ${outcome.reason}\n`);
          return 1;
        case 'not-confirmed':
          io.stderr('agentgen deploy: not confirmed; nothing was changed\n');
          return 1;
      }
    });
  }
  const allowSecrets = allowedSecretPaths(args['allow-secret']);
  if (deploy.image !== undefined && (allowSecrets.size > 0 || args['archive-out'] !== undefined)) {
    throw new UsageError(`--${allowSecrets.size > 0 ? 'allow-secret' : 'archive-out'} applies to a deploy from source; this spec deploys deploy.image`);
  }
  if (args['archive-out'] !== undefined && !args['dry-run'])
    throw new UsageError('--archive-out applies to --dry-run: it writes the archive the dry run packs');
  const source = deploy.image === undefined ? await packProject(spec, io.cwd, io, allowSecrets) : undefined;
  if (source === 'refused') return 1;
  const body = await createRequestBody(model, deploy, source === undefined ? undefined : { sourceArchive: source.archive.toString('base64') });
  if (args['dry-run']) {
    const shown = source === undefined ? body : await summariseSource(body, source);
    io.stdout(
      `dry run: nothing was called. The request a create sends (an update sends the same body with an updateMask):\nPOST ${endpoint}/${apiVersion}/${parentOf(deploy)}/reasoningEngines\n${JSON.stringify(shown, null, 2)}\n${source === undefined ? '' : dryRunSourceReport(source)}`,
    );
    if (source !== undefined && args['archive-out'] !== undefined) return writeArchive(source, resolvePath(io.cwd, args['archive-out']), io);
    return 0;
  }
  if (source !== undefined) io.stderr(deploySecretsNote(source));
  const client = new ReasoningEnginesClient({ endpoint, token: tokenSource(args['access-token-env'], env, redactor) });
  return reportApiErrors(io, async () => {
    const a2a = model.a2a === undefined ? {} : { a2a: { endpoint, face: model.a2a } };
    const outcome = await runDeploy({ client, body, deploy, allowBreaking: args['allow-breaking'], traffic, confirm: confirmPlan, wait, ...a2a });
    return reportDeploy(outcome, io, endpoint, body);
  });
}

/** `--promote`, `--rollback` or `--status`: at most one, and none with `--traffic`. */
function trafficAction(args: Args): TrafficAction | undefined {
  const chosen = (['promote', 'rollback', 'status'] as const).filter((name) => args[name]);
  if (chosen.length > 1) throw new UsageError(`--${chosen.join(' and --')} cannot be combined: give one`);
  if (chosen.length === 1 && args.traffic !== undefined) throw new UsageError(`--traffic applies to a deploy, not to --${chosen[0]}`);
  return chosen[0];
}

/** `--traffic N`: a whole percentage from 1 to 99 (100 is `--promote`; 0 would deploy a revision no call reaches). */
function trafficPercent(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const percent = Number(value);
  if (!/^\d{1,2}$/.test(value.trim()) || percent < 1 || percent > 99) {
    throw new UsageError(`--traffic takes a whole percentage from 1 to 99 for the new revision, not ${JSON.stringify(value)}; --promote sends it all`);
  }
  return percent;
}

/**
 * `--allow-secret PATH`, each as the packer names files: '/'-separated, relative to the project,
 * without './'. Exact paths only (no patterns): letting a secret through is one file at a time.
 */
function allowedSecretPaths(values: readonly string[] | undefined): ReadonlySet<string> {
  const paths = new Set<string>();
  for (const value of values ?? []) {
    const path = posix.normalize(value);
    if (value === '' || path.startsWith('/') || path === '.' || path === '..' || path.startsWith('../') || path.endsWith('/')) {
      throw new UsageError(`--allow-secret takes a file's path inside the project, as --dry-run names it, not "${printableText(value)}"`);
    }
    paths.add(path);
  }
  return paths;
}

/** The project (the spec's folder, else the working directory) packed for a deploy from source; `refused` after saying why. */
async function packProject(spec: string | undefined, cwd: string, io: Io, allowSecrets: ReadonlySet<string>): Promise<SourceArchive | 'refused'> {
  const project = spec === undefined ? cwd : dirname(spec);
  let source: SourceArchive;
  try {
    source = await packSource(project, { allowSecrets });
  } catch (error) {
    if (!(error instanceof SourceArchiveError)) throw error;
    io.stderr(`agentgen deploy: ${error.message}\n`);
    return 'refused';
  }
  // An --allow-secret that let nothing through is a typo or a stale flag: say so rather than deploy as if it had.
  const letThrough = new Set(source.allowedSecrets.map((entry) => entry.path));
  const unused = [...allowSecrets].filter((path) => !letThrough.has(path));
  if (unused.length > 0) {
    throw new UsageError(
      `--allow-secret ${unused.map((path) => `"${printableText(path)}"`).join(', ')}: no file at that path was refused as a secret; --dry-run lists the refused files by path`,
    );
  }
  return source;
}

/** `--archive-out FILE`: the archive the dry run packed, byte for byte what a deploy sends. */
async function writeArchive(source: SourceArchive, file: string, io: Io): Promise<number> {
  try {
    await writeFile(file, source.archive);
  } catch (error) {
    io.stderr(`agentgen deploy: cannot write the archive to ${printableText(file)}: ${(error as NodeJS.ErrnoException).code ?? 'unknown error'}\n`);
    return 1;
  }
  io.stdout(`Wrote the archive (${source.bytes} bytes) to ${printableText(file)}.\n`);
  return 0;
}

async function reportApiErrors(io: Io, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ReasoningEnginesApiError)) throw error;
    io.stderr(`agentgen deploy: ${error.message}\n`);
    return 1;
  }
}

async function reportDeploy(outcome: DeployOutcome, io: Io, endpoint: string, body: ReasoningEngineBody): Promise<number> {
  switch (outcome.kind) {
    case 'refused-breaking':
      io.stderr(
        `${outcome.report}\nagentgen deploy: refused: the change breaks callers of the deployed classMethods; pass --allow-breaking to deploy it anyway\n`,
      );
      return exitRefusedBreaking;
    case 'refused':
      io.stderr(`agentgen deploy: refused: ${outcome.reason}\n`);
      return 1;
    case 'not-confirmed':
      io.stderr('agentgen deploy: not confirmed; nothing was changed\n');
      return 1;
    default: {
      const what =
        outcome.kind === 'updated' ? `updated ${outcome.resource.name} (updateMask: ${outcome.mask.join(',')})` : `${outcome.kind} ${outcome.resource.name}`;
      const note = outcome.kind === 'unchanged' ? ': the deployed resource already matches the spec' : '';
      const after =
        outcome.kind === 'created'
          ? outcome.notes
          : outcome.kind !== 'updated'
            ? []
            : [...outcome.notes, ...(outcome.split === undefined ? [] : [`traffic: ${describeSplit(outcome.split)}`])];
      const said = after.map((line) => `${line}\n`).join('');
      io.stdout(
        `${what}${note}\n${said}\nCall it:\n${await queryCommand(outcome.resource.name, endpoint, body.spec.classMethods as { name: string; api_mode: string }[])}`,
      );
      return 0;
    }
  }
}

/**
 * `--yes`, else a prompt on a terminal; without a terminal, a usage error (never a silent deploy).
 * `plan` names the resource as the API does, so it comes redacted: the prompt writes to the terminal itself.
 */
async function confirm(plan: string, yes: boolean, io: Io): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) throw new UsageError(`would ${plan}; pass --yes to deploy without a prompt`);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(`agentgen deploy: ${plan}? [y/N] `)).trim());
  } finally {
    prompt.close();
    io.stderr('');
  }
}

export const deployVerb = plainVerb(
  {
    spec: specOption,
    'dry-run': {
      type: 'boolean',
      default: false,
      describe: 'Print the create request and call nothing; from source, list every file packed and every file refused.',
    },
    'allow-secret': {
      type: 'string',
      array: true,
      describe:
        'From source: pack this file although it looks like a secret (its path in the project, as --dry-run names it; no patterns). Repeat it for each file.',
    },
    'archive-out': { type: 'string', describe: 'With --dry-run, from source: also write the packed .tar.gz to this file.' },
    yes: { type: 'boolean', default: false, describe: 'Create or update without asking (needed without a terminal).' },
    'allow-breaking': { type: 'boolean', default: false, describe: 'Deploy even when the change breaks callers of the deployed classMethods.' },
    'api-endpoint': apiEndpointOption,
    'access-token-env': accessTokenEnvOption,
    'poll-interval': { type: 'string', describe: 'Milliseconds between polls of the operation. Default: 5000.' },
    timeout: { type: 'string', describe: 'Seconds to wait for the operation. Default: 1800.' },
    traffic: {
      type: 'string',
      describe: 'Updating an engine: send this percentage of calls (1-99) to the new revision, the rest as they go now.',
    },
    promote: { type: 'boolean', default: false, describe: 'Send every call to the newest revision (and to later ones); deploy nothing.' },
    rollback: { type: 'boolean', default: false, describe: 'Send every call to the revision before the newest; deploy nothing.' },
    status: { type: 'boolean', default: false, describe: 'Show the runtime revisions and how calls are split between them; change nothing.' },
  },
  (args: Args, io: Io) => deployCommand(args, io),
);
