// The cold-start bench's "plain ADK" peer (bench/cold-start.mjs): the server a team would write
// without agentgen, as plain ESM run by node with @google/adk from node_modules. An InMemoryRunner
// over an LlmAgent with one tool and a deterministic model, behind node:http: GET /health answers
// 200, POST /query runs one turn and answers its last text. Listens on 127.0.0.1:$PORT (0: a free
// port) and prints `listening on HOST:PORT`, as the example does.
import { createServer } from 'node:http';
import { BaseLlm, FunctionTool, InMemoryRunner, LlmAgent } from '@google/adk';
import { z } from 'zod';

/** Calls the tool for the user's turn, then reports its result: the example's offline model, shortened. */
class ScriptedModel extends BaseLlm {
  constructor() {
    super({ model: 'scripted' });
  }
  async *generateContentAsync(request) {
    const last = request.contents.at(-1);
    const result = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
    if (result) yield { content: { role: 'model', parts: [{ text: `It is ${result.response.sky} in ${result.response.city}.` }] } };
    else yield { content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] } };
  }
  connect() {
    return Promise.reject(new Error('no live mode'));
  }
}

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: "Returns today's weather report for a city.",
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ status: 'success', city, sky: 'clear' }),
});
const agent = new LlmAgent({ name: 'weather', model: new ScriptedModel(), instruction: 'Answer with the weather.', tools: [getWeather] });
const runner = new InMemoryRunner({ agent, appName: 'weather' });

const server = createServer(async (request, response) => {
  if (request.method === 'GET' && request.url === '/health') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  if (request.method !== 'POST' || request.url !== '/query') return void response.writeHead(404).end();
  const session = await runner.sessionService.createSession({ appName: 'weather', userId: 'u1' });
  let answer = '';
  for await (const event of runner.runAsync({ userId: 'u1', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })) {
    answer = event.content?.parts?.find((part) => part.text)?.text ?? answer;
  }
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer }));
});
server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => console.log(`listening on 127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
