/**
 * Issue 15 "Done when": the dev console in a real Chromium (the Debian package, driven by
 * playwright-core, which never downloads a browser; scripts/test-setup.sh installs it), in front of
 * the weather-agent example with its offline model: its own ADK agent, AgentApp and generated
 * server on loopback, behind the emulator with the console's page handler. The page is built from
 * the current sources into a temporary folder first.
 *
 * The test fills forms and clicks as a person would: a form checked in the page before sending, a
 * unary call, sessions created, picked and deleted from the page, a streaming turn whose cards show
 * the tool call with {"city": "Paris"}, the tool's result and the answer, a follow-up turn in the
 * same session, and a stream stopped with the Stop button (the handler's AbortSignal fires). A
 * screenshot of the turns goes to test-results/console/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentApp } from '@agentgen/agent-app';
import type { HandlerContext } from '@agentgen/runtime/server';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleHandler } from '../../emulator/console/serve.js';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { type AgentServer, createAgentServer } from '../../examples/weather-agent/generated/server.js';
import { createWeatherAgent } from '../../examples/weather-agent/src/agent.js';
import { chromiumPath } from '../helpers/chromium.js';

const repo = join(import.meta.dirname, '..', '..');
const exampleDir = join(repo, 'examples', 'weather-agent');
const outputDir = join(repo, 'test-results', 'console');
const resource = 'projects/demo/locations/us-central1/reasoningEngines/15';
const token = 'console-test-token';

let assetsDir: string;
let profile: string | undefined;
let container: AgentServer | undefined;
let emulator: Emulator | undefined;
let context: BrowserContext | undefined;
let tab: Page;
const pageErrors: string[] = [];
const browserRequests: string[] = [];
/** What the emulator logged: one line per call. */
const calls: string[] = [];
/** Set when the handler of a stopped stream sees its AbortSignal fire. */
let handlerAborted: (() => void) | undefined;
const handlerAbortedOnce = new Promise<void>((resolve) => (handlerAborted = resolve));

/**
 * Besides the example's 20 operations, one whose parameters carry what the form shows under a
 * field: defaults, a pattern and bounds (the container does not serve it; the form needs only its schema).
 */
const constrained = {
  name: 'plan_trip',
  api_mode: '',
  description: 'Plans a trip (declared for the form only).',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', pattern: '^[A-Z][a-z]+$', minLength: 2, maxLength: 40, default: 'Paris' },
      days: { type: 'integer', minimum: 1, maximum: 14, default: 3 },
      stops: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 5 },
    },
    required: ['city'],
  },
};
const declaredCount = 21;
const ready = `ready: ${declaredCount} operations`;

/** Lets the partial-text stream finish once the test has seen the card grow. */
let releasePartial: () => void = () => {};
const partialReleased = new Promise<void>((resolve) => (releasePartial = resolve));

/** Model text as a streaming model sends it: partial events, then the whole text (ADK's wire form), then a failure. */
async function* partialTextThenFailure(): AsyncGenerator<Record<string, unknown>> {
  const part = (text: string, partial: boolean) => ({
    author: 'weather_agent',
    content: { role: 'model', parts: [{ text }] },
    ...(partial ? { partial: true } : {}),
  });
  yield part('It is ', true);
  yield part('clear <b>in</b> ', true);
  await partialReleased;
  yield part('Paris.', true);
  yield part('It is clear <b>in</b> Paris.', false);
  throw new Error('the weather service went away');
}

/**
 * The example's AgentApp as the container's handlers, except for two messages: one starting with
 * "slow:" is held after its first event until the caller goes away (a stream long enough to stop),
 * and "spell it" streams partial text and then fails (an `{"error"}` line).
 */
function handlersOf(app: AgentApp): AgentApp {
  const handlers = Object.create(app) as AgentApp;
  handlers.async_stream_query = async (input, handlerContext?: HandlerContext) => {
    if (input.message === 'spell it') return partialTextThenFailure() as unknown as AsyncIterable<never>;
    const events = await app.async_stream_query(input, handlerContext);
    if (typeof input.message !== 'string' || !input.message.startsWith('slow:')) return events;
    const signal = handlerContext!.signal;
    return (async function* held() {
      for await (const event of events) {
        yield event;
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        if (signal.aborted) {
          handlerAborted?.();
          return;
        }
      }
    })();
  };
  return handlers;
}

beforeAll(async () => {
  if (chromiumPath === undefined) {
    throw new Error(
      'Chromium is not installed (no /usr/bin/chromium, no chromium on PATH), and the console test needs it. ' +
        'Run `bash scripts/test-setup.sh` (it installs the Debian package `chromium`; `npm test` runs it first).',
    );
  }
  assetsDir = mkdtempSync(join(tmpdir(), 'agentgen-console-assets-'));
  execFileSync(process.execPath, [join(repo, 'scripts', 'build-console-page.mjs'), '--out', assetsDir], { stdio: 'pipe' });

  const app = new AgentApp({ agent: createWeatherAgent({ model: 'offline' }), env: {} });
  container = createAgentServer(handlersOf(app), { port: 0, host: '127.0.0.1', logger: false });
  const { port } = await container.listen();
  emulator = await startEmulator({
    container: `http://127.0.0.1:${port}`,
    manifest: [...JSON.parse(readFileSync(join(exampleDir, 'generated', 'class-methods.json'), 'utf8')), constrained],
    port: 0,
    resource,
    token,
    logger: (line) => calls.push(line),
    pages: createConsoleHandler({ resource, token, assetsDir, a2aMount: '/a2a/weather-agent' }),
  });

  profile = mkdtempSync(join(tmpdir(), 'agentgen-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context.on('request', (request) => browserRequests.push(request.url()));
  tab = context.pages()[0] ?? (await context.newPage());
  tab.setDefaultTimeout(10_000);
  tab.on('pageerror', (error) => pageErrors.push(error.message));
  tab.on('console', (message) => {
    // Chromium logs the API's error answers (the 400 asked for on purpose) as failed loads; nothing else may be logged.
    const apiAnswer = message.location().url.startsWith(`${emulator?.url}/v1/`) && message.text().startsWith('Failed to load resource');
    if ((message.type() === 'error' || message.type() === 'warning') && !apiAnswer) pageErrors.push(`${message.text()} (${message.location().url})`);
  });
  await tab.goto(`${emulator.url}/`);
  await tab.locator('#status', { hasText: ready }).waitFor();
});

afterAll(async () => {
  await context?.close();
  await emulator?.close();
  await container?.close();
  for (const dir of [profile, assetsDir]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const operation = (name: string) => tab.locator(`#operations button[data-operation="${name}"]`);
const field = (name: string) => tab.locator(`#call .form > [data-field="${name}"]`);
/** The text boxes of a top-level field (a choice such as `message` shows the picked alternative's). */
const input = (name: string) => field(name).locator('input.string, input.number, textarea').first();
const turns = () => tab.locator('#timeline .turn');
const cards = (turn: number, kind: string) => turns().nth(turn).locator(`.card[data-kind="${kind}"]`);
const rawOf = async (card: ReturnType<typeof cards>): Promise<unknown> => JSON.parse((await card.locator('pre.raw').textContent()) ?? 'null');
const apiCalls = () => calls.filter((line) => line.startsWith('POST '));

describe('the dev console in Chromium, in front of the weather-agent example', () => {
  it('lists the declared operations with their api_mode and deprecation', async () => {
    expect(await tab.locator('#operations button.operation').count()).toBe(declaredCount);
    await expect.poll(() => operation('async_stream_query').locator('.badge').allTextContents()).toEqual(['async_stream']);
    expect(await operation('stream_query').locator('.badge').allTextContents()).toEqual(['stream', 'deprecated']);
    expect(await operation('async_get_session').locator('.badge').allTextContents()).toEqual(['async']);
    expect(await tab.locator('#resource').textContent()).toBe(resource);
  });

  it("shows each field's default, pattern and bounds under it, and the default as the empty box's placeholder", async () => {
    await operation('plan_trip').click();
    expect(await field('city').locator('.hint').textContent()).toBe('default: "Paris" · pattern: ^[A-Z][a-z]+$ · 2–40 characters');
    expect(await field('days').locator('.hint').textContent()).toBe('default: 3 · ≥ 1 · ≤ 14');
    expect(await field('stops').locator('.hint').textContent()).toBe('1–5 items');
    expect(await tab.getByLabel('city').getAttribute('placeholder')).toBe('Paris');
    expect(await tab.getByLabel('days').getAttribute('placeholder')).toBe('3');
    // Read with the box by a screen reader: the hint describes it.
    expect(await tab.getByRole('textbox', { name: 'city' }).getAttribute('aria-describedby')).toBe(await field('city').locator('.hint').getAttribute('id'));
    // An item of the list is named after its field.
    await field('stops').locator('button', { hasText: '+ item' }).click();
    await tab.getByLabel('stops item').fill('Lyon');
  });

  it('checks a form in the page before sending, then runs a unary call', async () => {
    await operation('async_create_session').click();
    expect(await tab.locator('#call h2').textContent()).toContain('async_create_session');
    // Filled from the sessions panel's user id.
    expect(await input('user_id').inputValue()).toBe('user');
    await input('user_id').fill('');
    await field('state').locator('textarea').fill('{"unit": ');
    const before = apiCalls().length;
    await tab.locator('#send').click();
    expect(await field('user_id').locator('.error').textContent()).toBe('required');
    expect(await field('state').locator('.error').textContent()).toMatch(/^not JSON: /);
    await field('state').locator('textarea').fill('[1]');
    await tab.locator('#send').click();
    expect(await field('state').locator('.error').textContent()).toBe('must be a JSON object');
    expect(await tab.locator('#status').textContent()).toBe('Fix the marked fields: nothing was sent.');
    expect(apiCalls().length).toBe(before);

    await input('user_id').fill('ada');
    await field('state').locator('textarea').fill('{"unit": "C"}');
    await input('session_id').fill('s-console');
    await tab.locator('#send').click();
    const output = cards(0, 'output');
    await output.waitFor();
    expect(JSON.parse((await output.locator('.body').textContent()) ?? '')).toMatchObject({ id: 's-console', user_id: 'ada', state: { unit: 'C' } });
    expect(JSON.parse((await cards(0, 'request').locator('.body').textContent()) ?? '')).toEqual({
      classMethod: 'async_create_session',
      input: { user_id: 'ada', state: { unit: 'C' }, session_id: 's-console' },
    });
    // The call, then the sessions panel's refresh after a session operation.
    expect(apiCalls().slice(before)).toEqual([
      expect.stringMatching(/^POST :query async_create_session \("async"\) 200 /),
      expect.stringMatching(/^POST :query async_list_sessions \("async"\) 200 /),
    ]);
  });

  it('creates and picks a session from the page, and streams a turn as cards', async () => {
    await tab.locator('#user-id').fill('ada');
    await tab.locator('#user-id').press('Tab');
    await tab.locator('#sessions li[data-session="s-console"]').waitFor();
    await tab.locator('#sessions button', { hasText: 'New session' }).click();
    await tab.locator('#sessions [data-role="picked"]', { hasText: /^session / }).waitFor();
    const picked = ((await tab.locator('#sessions [data-role="picked"]').textContent()) ?? '').slice('session '.length);
    expect(await tab.locator('#sessions li').count()).toBe(2);

    await operation('async_stream_query').click();
    expect(await input('user_id').inputValue()).toBe('ada');
    expect(await input('session_id').inputValue()).toBe(picked);
    // The box of the picked alternative of `message` (text or a content object) has a name of its own.
    await tab.getByLabel('message (string)').fill('What is the weather in Paris?');
    await tab.locator('#send').click();
    await turns().nth(1).locator('.card.note', { hasText: 'stream ended' }).waitFor();

    const call = cards(1, 'tool-call');
    expect(await call.count()).toBe(1);
    expect(await call.locator('.body').textContent()).toBe('get_weather({"city": "Paris"})');
    const callEvent = (await rawOf(call)) as { content: { parts: Array<{ function_call: { name: string; args: unknown } }> } };
    expect(callEvent.content.parts[0]!.function_call).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    const result = cards(1, 'tool-result');
    expect(await result.locator('.body').textContent()).toMatch(/^get_weather → \{[\s\S]*"sky": "clear"[\s\S]*"temperatureC": 18/);
    const answer = cards(1, 'text');
    expect(await answer.locator('.body').textContent()).toBe('It is clear and 18°C in Paris.');
    expect(await answer.locator('header .who').textContent()).toBe('weather_agent');
    // In order, each stamped with the time since the request.
    const kinds = await turns()
      .nth(1)
      .locator('.card')
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset['kind']));
    expect(kinds).toEqual(['request', 'tool-call', 'tool-result', 'text', 'note']);
    const stamps = await turns().nth(1).locator('.card time').allTextContents();
    const ms = stamps.map((stamp) => Number(/^\+(\d+) ms$/.exec(stamp)?.[1]));
    expect(ms.every((value, index) => Number.isInteger(value) && (index === 0 || value >= ms[index - 1]!))).toBe(true);
    // The raw JSON is one click away.
    expect(await call.locator('pre.raw').isVisible()).toBe(false);
    await call.locator('summary').click();
    expect(await call.locator('pre.raw').isVisible()).toBe(true);
    expect(apiCalls()).toContainEqual(expect.stringMatching(/^POST :streamQuery\?alt=sse async_stream_query \("async_stream"\) 200 /));

    // A follow-up turn in the same session: the form keeps its values.
    await input('message').fill('And in Tokyo?');
    await tab.locator('#send').click();
    await turns().nth(2).locator('.card.note', { hasText: 'stream ended' }).waitFor();
    expect(await cards(2, 'tool-call').locator('.body').textContent()).toBe('get_weather({"city": "Tokyo"})');
    expect(JSON.parse((await cards(2, 'request').locator('.body').textContent()) ?? '')).toMatchObject({ input: { user_id: 'ada', session_id: picked } });
    const session = await fetch(`${emulator!.url}/v1/${resource}:query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ classMethod: 'async_get_session', input: { user_id: 'ada', session_id: picked } }),
    });
    const { output } = (await session.json()) as { output: { events: Array<{ content?: { parts?: Array<{ text?: string }> } }> } };
    const said = output.events.map((event) => event.content?.parts?.[0]?.text).filter((text) => text !== undefined);
    expect(said).toEqual(['What is the weather in Paris?', 'It is clear and 18°C in Paris.', 'And in Tokyo?', 'It is cloudy and 21°C in Tokyo.']);

    mkdirSync(outputDir, { recursive: true });
    // The folder holds test output only: it ignores itself, as tools' cache folders do.
    writeFileSync(join(repo, 'test-results', '.gitignore'), '*\n');
    await call.locator('summary').click(); // raw JSON folded again
    await tab.screenshot({ path: join(outputDir, 'console.png'), fullPage: true });
    await turns()
      .nth(1)
      .screenshot({ path: join(outputDir, 'turn.png') });
    for (const file of ['console.png', 'turn.png']) expect(readFileSync(join(outputDir, file)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('stops a stream with the Stop button: the handler sees its signal fire', async () => {
    await input('message').fill('slow: Paris');
    await tab.locator('#send').click();
    await cards(3, 'tool-call').waitFor();
    expect(await tab.locator('#send').isDisabled()).toBe(true);
    await tab.locator('#stop').click();
    await handlerAbortedOnce;
    await turns().nth(3).locator('.card.note', { hasText: 'stopped after 1 line' }).waitFor();
    expect(await tab.locator('#status').textContent()).toBe('async_stream_query: stopped');
    expect(await tab.locator('#send').isDisabled()).toBe(false);
    expect(await tab.locator('#stop').isDisabled()).toBe(true);
    await expect.poll(() => calls.some((line) => /^POST :streamQuery\?alt=sse async_stream_query .* caller disconnected/.test(line))).toBe(true);
  });

  it('grows one text card as partial events arrive, and shows an {"error"} line as an error card', async () => {
    await input('message').fill('spell it');
    await tab.locator('#send').click();
    const text = cards(4, 'text');
    await text.locator('.body', { hasText: 'It is clear <b>in</b>' }).waitFor();
    // Still streaming: one card, marked so, its text so far (as text: the markup is not HTML).
    expect(await text.count()).toBe(1);
    expect(await text.getAttribute('class')).toBe('card text streaming');
    expect(await text.locator('.body').textContent()).toBe('It is clear <b>in</b> ');
    expect(await text.locator('b').count()).toBe(0);
    releasePartial();
    await turns().nth(4).locator('.card.note', { hasText: 'stream ended: 5 lines' }).waitFor();
    expect(await text.count()).toBe(1);
    expect(await text.getAttribute('class')).toBe('card text');
    expect(await text.locator('.body').textContent()).toBe('It is clear <b>in</b> Paris.');
    const error = cards(4, 'error');
    expect(await error.count()).toBe(1);
    expect(await error.locator('.body').textContent()).toMatch(/^INTERNAL: .*weather service went away|^\w+: /);
    expect(await rawOf(error)).toMatchObject({ error: expect.anything() });
  });

  it('shows an error answer as an error card', async () => {
    await operation('async_get_session').click();
    await input('session_id').fill('gone');
    await tab.locator('#send').click();
    const error = cards(5, 'error');
    await error.waitFor();
    // The container's NOT_FOUND, as the runtime reports a container failure.
    expect(await error.locator('.body').textContent()).toMatch(/^FAILED_PRECONDITION: Reasoning Engine Execution failed\.\n.*Error Details: .*NOT_FOUND/s);
    expect(await rawOf(error)).toMatchObject({ error: { code: 400, status: 'FAILED_PRECONDITION' } });
    expect(await cards(5, 'output').count()).toBe(0);
  });

  it('deletes a session from the page', async () => {
    await tab.locator('#sessions li[data-session="s-console"] button', { hasText: 'Delete' }).click();
    await tab.locator('#sessions li[data-session="s-console"]').waitFor({ state: 'detached' });
    expect(await tab.locator('#sessions li[data-session]').count()).toBe(1);
  });

  it('shows the A2A card and sends a message as Gemini Enterprise does (A2A 0.3 message/stream), through the passthrough', async () => {
    await tab.locator('#a2a-url').waitFor();
    expect(await tab.locator('#a2a-url').textContent()).toMatch(/\/a2a\/weather-agent$/);
    // The skill's example is the message ready to send.
    expect(await tab.locator('#a2a-message').inputValue()).toBe('Weather in Paris?');
    await tab.locator('#a2a-send').click();
    const note = cards(6, 'note');
    await note.waitFor();
    expect(await note.locator('.body').textContent()).toMatch(/^stream ended after \d+ events, the task completed$/);
    const events = await turns().nth(6).locator('.card[data-kind="event"] .body').allTextContents();
    expect(events).toContain('completed');
    expect(events.join('\n')).toContain('It is clear and 18°C in Paris.');
    // Both went through dev's passthrough: the card (GET) and the stream (POST).
    expect(calls.filter((line) => line.includes('passthrough')).map((line) => line.split(' - ')[0])).toEqual(['GET passthrough', 'POST passthrough']);
  });

  it('asks for the token when opened from another site, and works once it is typed', async () => {
    const direct = new URL(emulator!.url);
    // localhost and 127.0.0.1 are different sites: a page on one sending the browser to the other.
    await tab.goto(`http://localhost:${direct.port}/`);
    await tab.locator('#status', { hasText: ready }).waitFor();
    await tab.evaluate((target) => void (location.href = target), `${emulator!.url}/`);
    await tab.locator('#status', { hasText: 'Enter the bearer token' }).waitFor();
    expect(await tab.locator('#token-field').isVisible()).toBe(true);
    expect(await tab.locator('#operations button.operation').count()).toBe(0);
    expect(await tab.locator('meta[name="agentgen-console"]').getAttribute('content')).not.toContain(token);
    await tab.locator('#token').fill(token);
    await tab.locator('#token').press('Tab');
    await tab.locator('#status', { hasText: ready }).waitFor();
  });

  it('fetched nothing from elsewhere, and the page logged no error (no CSP violation)', () => {
    const localhost = `http://localhost:${new URL(emulator!.url).port}/`;
    expect(browserRequests.filter((url) => !url.startsWith(`${emulator!.url}/`) && !url.startsWith(localhost))).toEqual([]);
    const pages = [
      ...new Set(browserRequests.map((url) => new URL(url).pathname).filter((path) => !path.startsWith('/v1/') && !path.startsWith('/reasoningEngines/v1/'))),
    ].sort();
    expect(pages).toEqual(['/', '/console/app.css', '/console/app.js', '/console/icon.svg']);
    expect(pageErrors).toEqual([]);
  });
});
