// The fastify peer of bench/server-targets.mjs: what a TypeScript team would write instead of
// agentgen, on fastify 5 with the same input schemas as JSON Schema (fastify's ajv) and the same
// result and event schemas for response serialisation (fast-json-stringify), all read from the
// standard surface's generated/openapi.json. Same work as the other targets: parse the body
// (a string body is decoded once more), check the method and the input, answer the same result
// or stream the same events as NDJSON. Same IPC protocol: sends its port, answers 'cpu' with
// process.cpuUsage() and 'stop' by closing.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { sessionFor, turn } from './workload.mjs';

const openapi = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));

/** A component schema with every `$ref` inlined (the ones used here have no cycles). */
function component(name) {
  const inline = (schema) => {
    if (Array.isArray(schema)) return schema.map(inline);
    if (schema === null || typeof schema !== 'object') return schema;
    if (typeof schema.$ref === 'string') return component(schema.$ref.replace('#/components/schemas/', ''));
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value)]));
  };
  return inline(openapi.components.schemas[name]);
}

const eventSchema = component('Event');

const operations = {
  async_create_session: { route: '/api/reasoning_engine', input: component('AsyncCreateSessionInput') },
  async_stream_query: { route: '/api/stream_reasoning_engine', input: component('AsyncStreamQueryInput') },
};

/** The envelope of one route: `class_method` one of its operations, `input` by that operation's schema. */
function envelope(route) {
  const names = Object.keys(operations).filter((name) => operations[name].route === route);
  return {
    type: 'object',
    required: ['class_method'],
    properties: { class_method: { enum: names }, input: { type: 'object' } },
    allOf: names.map((name) => ({ if: { properties: { class_method: { const: name } } }, then: { properties: { input: operations[name].input } } })),
  };
}

// No type coercion (fastify's default turns 5 into "5"): a wrong type is refused, as the other targets refuse it.
const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024, ajv: { customOptions: { coerceTypes: false } } });
// The contract's second decode: a body that is a JSON string holds the envelope.
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, text, done) => {
  try {
    const body = JSON.parse(text);
    done(null, typeof body === 'string' ? JSON.parse(body) : body);
  } catch (error) {
    error.statusCode = 400;
    done(error, undefined);
  }
});

app.post('/api/reasoning_engine', {
  schema: { body: envelope('/api/reasoning_engine'), response: { 200: { type: 'object', properties: { output: component('Session') } } } },
  handler: async (req) => ({ output: sessionFor(req.body.input ?? {}) }),
});

app.post('/api/stream_reasoning_engine', {
  schema: { body: envelope('/api/stream_reasoning_engine') },
  handler: async (req, reply) => {
    // Events through a compiled serialiser, as fastify serialises a response; one write per stream.
    const serializeEvent = reply.compileSerializationSchema(eventSchema); // cached by fastify per schema
    let pending = '';
    for await (const event of turn(req.body.input ?? {})) pending += `${serializeEvent(event)}\n`;
    reply.type('application/json').send(pending);
  },
});

await app.listen({ port: 0, host: '127.0.0.1' });
process.send(app.server.address().port);
process.on('message', (message) => {
  if (message === 'cpu') {
    process.send(process.cpuUsage());
    return;
  }
  app.server.closeAllConnections();
  app.close().then(() => process.exit(0));
});
