/**
 * Issue 29: `deploy` and `breaking --deployed` (the built bin) never print the access token, on
 * every path it could reach the output by: a token that would make an invalid header (refused
 * before any request, naming the variable), an API that echoes the Authorization header and the
 * token in a 401/403/500 body or in a page that is not JSON, a network error that quotes an
 * endpoint holding it, a prompt naming a resource the API named after it, and a token minted by
 * Application Default Credentials. Each run's message still says what went wrong. The tokens are
 * opaque (no `ya29.` prefix), so it is the value itself that is hidden, not just its shape.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { root } from '../generator/golden-cases.js';
import { externalAccountEnv } from './external-account.js';
import { FakeReasoningEngines, rpcStatusBody } from './fake-reasoning-engines.js';
import { type CliRun, runCli } from './run-cli.js';

const token = 'opaque-deploy-token-0123456789';
const parent = 'projects/my-project/locations/us-central1';
const specEnv = { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1' };
let dir: string;
let api: FakeReasoningEngines;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-redaction-'));
  copyFileSync(join(root, 'examples/weather-agent/agentgen.yaml'), join(dir, 'agentgen.yaml'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  api = await new FakeReasoningEngines(token).start();
});
afterEach(() => api.stop());

/** Runs `agentgen ...args` with the token in ACCESS_TOKEN; fails the test if any output holds `secret` or a line of it. */
async function run(args: readonly string[], { secret = token, endpoint = api.url }: { secret?: string; endpoint?: string } = {}): Promise<CliRun> {
  const result = await runCli([...args, '--api-endpoint', endpoint, '--access-token-env', 'ACCESS_TOKEN'], {
    cwd: dir,
    env: { ...specEnv, ACCESS_TOKEN: secret },
  });
  expectNoSecret(result, secret);
  return result;
}

function expectNoSecret(result: CliRun, secret: string): void {
  for (const piece of [secret, ...secret.split(/\s+/)].filter((p) => p.length >= 8)) {
    expect(result.stdout).not.toContain(piece);
    expect(result.stderr).not.toContain(piece);
  }
}

const deploy = ['deploy', '--yes', '--poll-interval', '20'];
const breakingDeployed = ['breaking', '--deployed'];
/** A body that quotes the request's Authorization header and the token on its own. */
const echo = (authorization: string) => `the request had Authorization: ${authorization} (token ${authorization.replace(/^Bearer /, '')})`;

describe('a token that would make an invalid header: refused before any request, naming the variable', () => {
  test.each([
    ['deploy', deploy, 1, 'agentgen: '],
    ['breaking --deployed', breakingDeployed, 2, 'agentgen breaking: '],
  ] as const)('%s, with a line break inside the token (the attack of issue 29)', async (_name, verb, code, prefix) => {
    const result = await run(verb, { secret: 'ya29.first-line-secret\nsecond-line-secret' });
    expect(result).toMatchObject({
      code,
      stdout: '',
      stderr: `${prefix}--access-token-env ACCESS_TOKEN: the access token holds a control character (CR, LF, NUL, …) inside it; refused before any request (the value is not shown)\n`,
    });
    expect(api.requests).toEqual([]);
  });

  test('a space inside the token', async () => {
    const result = await run(deploy, { secret: `${token} more-secret-words` });
    expect(result.stderr).toBe(
      'agentgen: --access-token-env ACCESS_TOKEN: the access token holds whitespace; refused before any request (the value is not shown)\n',
    );
    expect(api.requests).toEqual([]);
  });

  test('a trailing CRLF (a token file saved on Windows) is removed, and the deploy goes ahead with the token', async () => {
    const result = await run(deploy, { secret: `${token}\r\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^created projects\//);
    expect(api.requests.every((r) => r.authorization === `Bearer ${token}`)).toBe(true);
  });
});

describe('an API whose answer echoes the Authorization header and the token', () => {
  test.each([
    { status: 401, expected: 'UNAUTHENTICATED (HTTP 401)' },
    { status: 403, expected: 'PERMISSION_DENIED (HTTP 403)' },
    { status: 500, expected: 'INTERNAL (HTTP 500)' },
  ])('$status with a google.rpc.Status body', async ({ status, expected }) => {
    api.answerNext('GET', status, (authorization) => rpcStatusBody(status, echo(authorization)), 'application/json');
    const result = await run(deploy);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `agentgen deploy: listing reasoningEngines in ${parent} failed: ${expected}: the request had Authorization: Bearer [redacted] (token [redacted])\n`,
    );
  });

  test('a proxy page that is not JSON, on create', async () => {
    api.answerNext('POST', 502, (authorization) => `<html><body>Bad gateway. ${echo(authorization)}</body></html>`, 'text/html');
    const result = await run(deploy);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `agentgen deploy: creating a reasoningEngine in ${parent} failed: UNKNOWN (HTTP 502): <html><body>Bad gateway. the request had Authorization: Bearer [redacted] (token [redacted])</body></html>\n`,
    );
  });

  test('a page longer than the quoted excerpt, cut in the middle of the token: no part of it is quoted', async () => {
    api.answerNext('GET', 500, () => `${'x'.repeat(480)} ${token}`);
    const result = await run(deploy);
    expect(result.stderr).toMatch(/failed: UNKNOWN \(HTTP 500\): x{480} …\n$/);
    expect(result.stderr).not.toContain(token.slice(0, 19));
  });

  test('a resource named after the token: the prompt of a deploy without --yes names it redacted', async () => {
    api.answerNext(
      'GET',
      200,
      () => JSON.stringify({ reasoningEngines: [{ name: `${parent}/reasoningEngines/${token}`, displayName: 'weather-agent', spec: { classMethods: [] } }] }),
      'application/json',
    );
    const result = await run(['deploy']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^agentgen: would update ${parent}/reasoningEngines/\\[redacted\\]: .*; pass --yes to deploy without a prompt\n`));
  });

  test('breaking --deployed, refused with a 403 that echoes the header', async () => {
    api.answerNext('GET', 403, (authorization) => rpcStatusBody(403, echo(authorization)), 'application/json');
    const result = await run(breakingDeployed);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(
      /^agentgen breaking: listing reasoningEngines in \S+ failed: PERMISSION_DENIED \(HTTP 403\): the request had Authorization: Bearer \[redacted\] \(token \[redacted\]\)\n/,
    );
  });
});

test('a network error that quotes an endpoint holding the token', async () => {
  const url = api.url;
  await api.stop();
  const result = await run(deploy, { endpoint: `${url}/${token}` });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(
    new RegExp(`^agentgen deploy: listing reasoningEngines in ${parent} failed: UNAVAILABLE \\(network\\): cannot reach ${url}/\\[redacted\\]: `),
  );
  api = await new FakeReasoningEngines(token).start(); // for afterEach
});

describe('a token from Application Default Credentials gets the same treatment', () => {
  /** A deploy whose ADC token is minted by a fake (its STS exchange) that then answers as `prepare` says. */
  async function deployWithAdc(mintedToken: string, prepare: (api: FakeReasoningEngines) => void = () => {}): Promise<CliRun> {
    const minting = await new FakeReasoningEngines(mintedToken).start();
    prepare(minting);
    try {
      const result = await runCli([...deploy, '--api-endpoint', minting.url], {
        cwd: dir,
        env: { ...specEnv, ...externalAccountEnv(dir, `${minting.url}/v1/token`) },
      });
      expectNoSecret(result, mintedToken);
      return result;
    } finally {
      await minting.stop();
    }
  }

  test('a minted token with whitespace inside is refused before any request', async () => {
    const result = await deployWithAdc('minted-token-part-one minted-token-part-two');
    expect(result).toMatchObject({
      code: 1,
      stderr: 'agentgen: Application Default Credentials: the access token holds whitespace; refused before any request (the value is not shown)\n',
    });
  });

  test('a minted token the API echoes is hidden', async () => {
    const result = await deployWithAdc('minted-opaque-token-0123456789', (minting) =>
      minting.answerNext('GET', 403, (authorization) => rpcStatusBody(403, echo(authorization)), 'application/json'),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/failed: PERMISSION_DENIED \(HTTP 403\): the request had Authorization: Bearer \[redacted\] \(token \[redacted\]\)\n/);
  });
});
