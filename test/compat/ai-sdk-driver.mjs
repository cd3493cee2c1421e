/**
 * Run by test/compat/ai-sdk-7.test.ts under Node.js 22, from a project of its own where `ai` 7 and
 * the packed @agentgen/runtime are installed (copied there, so that `ai` resolves to that project's,
 * not the checkout's `ai` 6). Prints one JSON object of what it saw:
 * - `rows`: each row of test/client/ui-message-rows.ts (argv[2], as JSON) through
 *   `toUIMessageStream`, read back by `ai` 7's own `readUIMessageStream`;
 * - `chat`: `agentChatRoute` behind node:http on loopback, called by `ai` 7's `DefaultChatTransport`
 *   with a useChat default chat id, the session id `chatSessionId` gave, and what the route answers
 *   a malformed message and a GET.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { agentChatRoute, chatSessionId, lastUserText, toUIMessageStream } from '@agentgen/runtime/ui/ai-sdk';
import { DefaultChatTransport, readUIMessageStream } from 'ai';

const rows = JSON.parse(readFileSync(process.argv[2], 'utf8'));

async function* from(events, failure) {
  yield* events;
  if (failure !== undefined) throw new Error(failure);
}

async function collect(stream) {
  const chunks = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  return chunks;
}

const replay = (chunks) =>
  new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

/** The last snapshot `ai`'s reader builds (what useChat holds), and the errors it reported. */
async function read(stream) {
  let message;
  const errors = [];
  for await (const snapshot of readUIMessageStream({ stream, onError: (error) => errors.push(error.message) })) message = snapshot;
  return { role: message?.role, parts: message?.parts ?? [], errors };
}

let n = 0;
const newId = (kind) => `${kind}-${++n}`;
const rowResults = [];
for (const row of rows) {
  const chunks = await collect(toUIMessageStream(from(row.events, row.failure), { newId }));
  rowResults.push({ name: row.name, first: chunks[0], last: chunks.at(-1), ...(await read(replay(chunks))) });
}

/** A web handler behind node:http, as an Express or plain Node app mounts one. */
async function serve(handler) {
  const server = createServer(async (req, res) => {
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Readable.toWeb(req);
    const response = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, body, duplex: 'half' }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/api/chat` };
}

const model = (...parts) => ({ author: 'weather_agent', content: { role: 'model', parts } });
const sessionIds = [];
const { server, url } = await serve(
  agentChatRoute({
    events: async ({ messages, chatId }) => {
      sessionIds.push(await chatSessionId('ada', chatId));
      const city = lastUserText(messages).includes('Paris') ? 'Paris' : 'nowhere';
      return from([
        model({ function_call: { id: 'c1', name: 'get_weather', args: { city } } }),
        { author: 'weather_agent', content: { role: 'user', parts: [{ function_response: { id: 'c1', name: 'get_weather', response: { sky: 'clear' } } }] } },
        model({ text: `Clear in ${city}` }),
      ]);
    },
  }),
);
const transport = new DefaultChatTransport({ api: url });
const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Paris?' }] };
const stream = await transport.sendMessages({
  trigger: 'submit-message',
  chatId: 'wJlgnPAoAXw8VGiI',
  messageId: undefined,
  messages: [user],
  abortSignal: undefined,
});
const turn = await read(stream);
const malformed = await fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: '{"id":"c","messages":[{"role":"user","parts":[null]}]}',
});
const get = await fetch(url);
server.close();

const aiVersion = JSON.parse(readFileSync('node_modules/ai/package.json', 'utf8')).version;
process.stdout.write(
  JSON.stringify({
    node: process.version,
    ai: aiVersion,
    rows: rowResults,
    chat: {
      ...turn,
      sessionIds,
      malformed: { status: malformed.status, body: await malformed.json() },
      get: { status: get.status, allow: get.headers.get('allow') },
    },
  }),
);
