/**
 * Issue 45 item 3: the current `ai` (7.x) with @agentgen/runtime as a user installs them. `ai` 7
 * and `@ai-sdk/react` 4 need Node.js 22, so everything runs in a project of its own: the packed
 * runtime, `ai@^7`, `@ai-sdk/react@^4` and React installed by `npm install` (the peer range `ai@^6`
 * made it stop with ERESOLVE); TypeScript checks the adapter's own sources and a route against
 * `ai` 7's types; and under the official Node.js 22 (node-binaries.ts) the adapter's chunks are
 * read by `ai` 7's `readUIMessageStream` (the rows of test/client/ui-message-rows.ts) and the chat
 * route answers `ai` 7's `DefaultChatTransport` (ai-sdk-driver.mjs). `ai` 6, the checkout's own,
 * is tested by test/client/ui-ai-sdk.test.ts and ui-dev-turn.test.ts with the same rows.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedOnce, run } from '../../scripts/packed-packages.mjs';
import { generatedToolId, generatedToolIdPattern, rows } from '../client/ui-message-rows.js';
import { compilers, root, runTsc } from '../tsc/compilers.mjs';
import { installedNode, nodeReleases } from './node-binaries.js';

const node22 = nodeReleases.find((release) => release.startsWith('22.'))!;
let project = '';
let node = '';

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'agentgen-ai7-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ai7-check', private: true, type: 'module' }));
  const packed = await packedOnce();
  const runtime = packed.get('@agentgen/runtime')!.file;
  // Ranges, not pins: the point is that the latest 7.x installs beside the runtime.
  const install = ['install', '--no-audit', '--no-fund', '--loglevel=error', runtime, 'ai@^7', '@ai-sdk/react@^4', 'react@^19', 'zod@^4'];
  [, node] = await Promise.all([run('npm', install, project), installedNode(node22)]);
}, 600_000);

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

const consumer = `import type { UIMessage, UIMessageChunk } from 'ai';
import { agentChatRoute, chatSessionId, lastUserText, toUIMessageStream, uiMessageStreamResponse } from '@agentgen/runtime/ui/ai-sdk';

declare const events: AsyncIterable<unknown>;
export const chunks: ReadableStream<UIMessageChunk> = toUIMessageStream(events, { messageId: 'm1' });
export const response: Response = uiMessageStreamResponse(events, { onError: () => 'The agent is unavailable' });
export const POST: (request: Request) => Promise<Response> = agentChatRoute<UIMessage>({
  events: async ({ messages, chatId, signal }) => {
    const session = await chatSessionId('u1', chatId);
    return session === lastUserText(messages) || signal.aborted ? events : events;
  },
});
`;

describe('ai 7 with the packed @agentgen/runtime', () => {
  it('installs with npm install: ai 7 and @ai-sdk/react 4 beside the runtime', () => {
    expect(versionOf('ai')).toMatch(/^7\./);
    expect(versionOf('@ai-sdk/react')).toMatch(/^4\./);
    expect(versionOf('@agentgen/runtime')).toBe((JSON.parse(readFileSync(join(root, 'runtime/package.json'), 'utf8')) as { version: string }).version);
  });

  it("type-checks the adapter's sources and a chat route against ai 7's types", async () => {
    writeFileSync(join(project, 'consumer.ts'), consumer);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2023',
        lib: ['es2023', 'dom', 'dom.iterable'],
        types: [],
        noEmit: true,
        skipLibCheck: true,
      },
      // The published sources (src/ ships in the package): every chunk the adapter builds is checked against ai 7's UIMessageChunk.
      files: ['consumer.ts', 'node_modules/@agentgen/runtime/src/ui/ai-sdk.ts'],
    };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = compilers.find((compiler) => compiler.major === 5)!;
    const result = await runTsc(tsc, ['-p', join(project, 'tsconfig.json')], { timeoutMs: 120_000, cwd: project });
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  }, 150_000);

  it("under Node.js 22: ai 7's reader builds the same messages, and DefaultChatTransport talks to agentChatRoute", () => {
    copyFileSync(join(root, 'test/compat/ai-sdk-driver.mjs'), join(project, 'driver.mjs'));
    writeFileSync(join(project, 'rows.json'), JSON.stringify(rows));
    const ran = spawnSync(node, ['driver.mjs', 'rows.json'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
    // A row whose stream fails logs the real error for the server (the browser is told only the
    // generic text, checked below): nothing else may reach stderr.
    const serverLog = 'agentgen: the agent stream failed (the browser was told "The agent stream failed"): ';
    expect(ran.stderr).toContain(serverLog);
    expect(ran.stderr.split('\n').filter((line) => line !== '' && !line.startsWith(serverLog) && !/^\s+at /.test(line))).toEqual([]);
    expect(ran.status).toBe(0);
    const seen = JSON.parse(ran.stdout) as {
      node: string;
      ai: string;
      rows: Array<{ name: string; first: unknown; last: unknown; role?: string; parts: unknown[]; errors: string[] }>;
      chat: { parts: unknown[]; errors: string[]; sessionIds: string[]; malformed: { status: number; body: unknown }; get: { status: number; allow: string } };
    };
    expect(seen.node).toBe(`v${node22}`);
    expect(seen.ai).toMatch(/^7\./);

    const expectedPart = (part: object) =>
      expect.objectContaining(
        Object.fromEntries(
          Object.entries(part).map(([key, value]) => [key, value === generatedToolId ? expect.stringMatching(generatedToolIdPattern) : value]),
        ),
      );
    expect(seen.rows.map((row) => row.name)).toEqual(rows.map((row) => row.name));
    for (const [index, row] of rows.entries()) {
      const got = seen.rows[index]!;
      expect({ name: row.name, first: got.first, last: got.last }).toEqual({
        name: row.name,
        first: { type: 'start' },
        last: { type: 'finish', finishReason: row.finishReason },
      });
      expect({ name: row.name, errors: got.errors }).toEqual({ name: row.name, errors: row.errors ?? [] });
      expect({ name: row.name, parts: got.parts }).toEqual({ name: row.name, parts: row.parts.map((part) => expectedPart(part as object)) });
    }

    expect(seen.chat.errors).toEqual([]);
    expect(seen.chat.parts).toEqual([
      expect.objectContaining({ type: 'tool-get_weather', state: 'output-available', input: { city: 'Paris' }, output: { sky: 'clear' } }),
      expect.objectContaining({ type: 'text', text: 'Clear in Paris' }),
    ]);
    expect(seen.chat.sessionIds).toEqual([expect.stringMatching(/^chat-[0-9a-f]{48}$/)]);
    expect(seen.chat.malformed).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'messages[0].parts[0] is not a UI message part (an object with a string type)' } },
    });
    expect(seen.chat.get).toEqual({ status: 405, allow: 'POST' });
  });
});
