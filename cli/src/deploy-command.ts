/**
 * `deploy`: the spec's create request, applied to the platform (see `deploy/deploy.ts` for the
 * steps). `--dry-run` prints the request and calls nothing. google-auth-library is loaded only
 * when a deploy calls the API without `--access-token-env`.
 */
import { resolve as resolvePath } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { buildCreateRequest, defaultApiEndpoint, parentOf } from '../../generator/emit/deploy-request.js';
import { queryCommand } from '../../generator/emit/deploy-shell.js';
import { tokenSource } from './deploy/access-token.js';
import { ReasoningEnginesApiError } from './deploy/reasoning-engines-api-error.js';
import { runDeploy, type DeployOutcome } from './deploy/deploy.js';
import type { Redactor } from './deploy/redact.js';
import { ReasoningEnginesClient } from './deploy/reasoning-engines-client.js';
import { loadDeployTarget } from './deploy-target.js';
import type { Io } from './io.js';
import { apiEndpointOption, accessTokenEnvOption, positiveNumber } from './deploy-options.js';
import { specOption } from './options.js';
import { withRedactedOutput } from './redacted-output.js';
import { UsageError } from './usage-error.js';
import { plainVerb } from './verb.js';

interface Args {
  readonly spec?: string;
  readonly 'dry-run': boolean;
  readonly yes: boolean;
  readonly 'allow-breaking': boolean;
  readonly 'api-endpoint'?: string;
  readonly 'access-token-env'?: string;
  readonly 'poll-interval'?: string;
  readonly timeout?: string;
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
  const spec = args.spec === undefined ? undefined : resolvePath(io.cwd, args.spec);
  const { model, deploy } = await loadDeployTarget(spec, io.cwd, env, ['image', 'project', 'location']);
  const body = buildCreateRequest(model, deploy);
  const endpoint = args['api-endpoint'] ?? defaultApiEndpoint(deploy.location!);
  if (args['dry-run']) {
    io.stdout(
      `dry run: nothing was called. The request a create sends (an update sends the same body with an updateMask):\nPOST ${endpoint}/v1/${parentOf(deploy)}/reasoningEngines\n${JSON.stringify(body, null, 2)}\n`,
    );
    return 0;
  }
  const client = new ReasoningEnginesClient({ endpoint, token: tokenSource(args['access-token-env'], env, redactor) });
  let outcome: DeployOutcome;
  try {
    outcome = await runDeploy({
      client,
      body,
      deploy,
      allowBreaking: args['allow-breaking'],
      confirm: (plan) => confirm(redactor.redact(plan), args.yes, io),
      wait: { intervalMs, timeoutMs, progress: (line) => io.stderr(`agentgen deploy: ${line}\n`) },
    });
  } catch (error) {
    if (!(error instanceof ReasoningEnginesApiError)) throw error;
    io.stderr(`agentgen deploy: ${error.message}\n`);
    return 1;
  }
  switch (outcome.kind) {
    case 'refused-breaking':
      io.stderr(
        `${outcome.report}\nagentgen deploy: refused: the change breaks callers of the deployed classMethods; pass --allow-breaking to deploy it anyway\n`,
      );
      return exitRefusedBreaking;
    case 'not-confirmed':
      io.stderr('agentgen deploy: not confirmed; nothing was changed\n');
      return 1;
    default: {
      const what =
        outcome.kind === 'updated' ? `updated ${outcome.resource.name} (updateMask: ${outcome.mask.join(',')})` : `${outcome.kind} ${outcome.resource.name}`;
      const note = outcome.kind === 'unchanged' ? ': the deployed resource already matches the spec' : '';
      io.stdout(`${what}${note}\n\nCall it:\n${queryCommand(outcome.resource.name, endpoint, body.spec.classMethods as { name: string; api_mode: string }[])}`);
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
    'dry-run': { type: 'boolean', default: false, describe: 'Print the create request and call nothing.' },
    yes: { type: 'boolean', default: false, describe: 'Create or update without asking (needed without a terminal).' },
    'allow-breaking': { type: 'boolean', default: false, describe: 'Deploy even when the change breaks callers of the deployed classMethods.' },
    'api-endpoint': apiEndpointOption,
    'access-token-env': accessTokenEnvOption,
    'poll-interval': { type: 'string', describe: 'Milliseconds between polls of the operation. Default: 5000.' },
    timeout: { type: 'string', describe: 'Seconds to wait for the operation. Default: 1800.' },
  },
  (args: Args, io: Io) => deployCommand(args, io),
);
