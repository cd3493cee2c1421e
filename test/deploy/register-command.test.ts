/**
 * Issue 43, item 7: `agentgen register` (built bin) prints, or with `--send` sends, the request that
 * adds the deployed agent to a Gemini Enterprise app: the A2A form (`a2aAgentDefinition.jsonAgentCard`,
 * the card the container serves, its URL the engine's passthrough) and the ADK form
 * (`adkAgentDefinition.provisionedReasoningEngine`). Shapes from Gemini Enterprise's "Register and
 * manage A2A agents" and the v1alpha REST reference of `…/engines/{app}/assistants/{assistant}/agents`.
 * `--send` goes to a fake Discovery Engine on loopback, which records what it got.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { root } from '../generator/golden-cases.js';
import { runCli } from './run-cli.js';

const token = 'ya29.register-token-that-must-never-be-printed';
const env = { GOOGLE_CLOUD_PROJECT_ID: 'my-project', IMAGE_TAG: 'v1', GE_TOKEN: token };
const engine = 'projects/my-project/locations/us-central1/reasoningEngines/123';
const agentsPath = '/v1alpha/projects/my-project/locations/global/collections/default_collection/engines/my-app/assistants/default_assistant/agents';
let dir: string;
let discovery: Server;
let discoveryUrl: string;
const received: { path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
let refuse = false;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-register-'));
  copyFileSync(join(root, 'examples/weather-agent/agentgen.yaml'), join(dir, 'agentgen.yaml'));
  discovery = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
      if (refuse) {
        res
          .writeHead(403, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 403, status: 'PERMISSION_DENIED', message: 'no agents.create' } }));
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ name: `projects/123456/locations/global/collections/default_collection/engines/my-app/assistants/default_assistant/agents/987` }),
        );
    });
  });
  await new Promise<void>((resolve) => discovery.listen(0, '127.0.0.1', resolve));
  discoveryUrl = `http://127.0.0.1:${(discovery.address() as AddressInfo).port}`;
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => discovery.close(resolve));
});

/** The printed request: its first line, its user-project line and its JSON body. */
function printed(stdout: string): { line: string; project: string; body: Record<string, any> } {
  const [line = '', project = '', ...rest] = stdout.split('\n');
  return { line, project, body: JSON.parse(rest.join('\n')) as Record<string, any> };
}

describe('agentgen register', () => {
  test('prints the A2A form: the card as the container serves it, its URL the engine’s passthrough', async () => {
    const run = await runCli(['register', '--app', 'my-app', '--resource', '123'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    const { line, project, body } = printed(run.stdout);
    expect(line).toBe(`POST https://discoveryengine.googleapis.com${agentsPath}`);
    expect(project).toBe('X-Goog-User-Project: my-project');
    expect(body).toMatchObject({ displayName: 'weather-agent', description: 'Tells the weather in a city, and saves a short weather report as an artifact.' });
    const card = JSON.parse(body.a2aAgentDefinition.jsonAgentCard as string) as Record<string, unknown>;
    const url = `https://us-central1-aiplatform.googleapis.com/reasoningEngines/v1/${engine}/api/a2a/weather-agent`;
    // The 0.3 shape Gemini Enterprise validates, and the 1.0 interfaces.
    expect(card).toMatchObject({
      url,
      protocolVersion: '0.3.0',
      preferredTransport: 'JSONRPC',
      supportedInterfaces: [
        { url, protocolVersion: '1.0' },
        { url, protocolVersion: '0.3' },
      ],
    });
  });

  test('prints the ADK form for the engine, at the app location’s endpoint', async () => {
    const run = await runCli(['register', '--app', 'my-app', '--resource', engine, '--form', 'adk', '--app-location', 'eu'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    const { line, body } = printed(run.stdout);
    expect(line).toBe(`POST https://eu-discoveryengine.googleapis.com${agentsPath.replace('/locations/global/', '/locations/eu/')}`);
    expect(body).toEqual({
      displayName: 'weather-agent',
      description: 'An ADK agent with two tools, served by the generated server with AgentApp.',
      adkAgentDefinition: { provisionedReasoningEngine: { reasoningEngine: engine } },
    });
  });

  test('--send posts it with the token and the user project, and says what was registered; the token is never printed', async () => {
    const run = await runCli(
      ['register', '--app', 'my-app', '--resource', '123', '--send', '--access-token-env', 'GE_TOKEN', '--discovery-endpoint', discoveryUrl],
      { cwd: dir, env },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      'registered projects/123456/locations/global/collections/default_collection/engines/my-app/assistants/default_assistant/agents/987 in app my-app\n',
    );
    const request = received.at(-1)!;
    expect(request.path).toBe(agentsPath);
    expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expect(request.headers['x-goog-user-project']).toBe('my-project');
    expect(Object.keys(request.body)).toEqual(['displayName', 'description', 'a2aAgentDefinition']);

    refuse = true;
    const refused = await runCli(
      ['register', '--app', 'my-app', '--resource', '123', '--send', '--access-token-env', 'GE_TOKEN', '--discovery-endpoint', discoveryUrl],
      { cwd: dir, env },
    );
    refuse = false;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('agentgen register: Gemini Enterprise refused the registration: PERMISSION_DENIED: no agents.create\n');
    for (const text of [run.stdout, run.stderr, refused.stdout, refused.stderr]) expect(text).not.toContain(token);
  });

  test.each([
    [['register', '--resource', '123'], '--app is required'],
    [['register', '--app', 'My App', '--resource', '123'], '--app takes the Gemini Enterprise app id'],
    [['register', '--app', 'my-app', '--resource', '123', '--app-location', 'mars'], '--app-location is the app'],
    [['register', '--app', 'my-app'], 'name the deployed engine: --resource ID'],
  ])('%j is a usage error', async (args, message) => {
    const run = await runCli(args, { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  test('--form a2a needs the spec’s a2a: section', async () => {
    const spec = readFileSync(join(dir, 'agentgen.yaml'), 'utf8');
    writeFileSync(join(dir, 'no-a2a.yaml'), spec.slice(0, spec.indexOf('\n# Its A2A face') + 1));
    const run = await runCli(['register', '--spec', 'no-a2a.yaml', '--app', 'my-app', '--resource', '123'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--form a2a registers the A2A face: the spec has no a2a: section (use --form adk)');
  });
});
