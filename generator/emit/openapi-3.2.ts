/**
 * `openapi-3.2.json`: the same document as `openapi.json` in OpenAPI 3.2, which can say what one
 * item of a stream is. Each stream route answers with the sequential media types of OpenAPI 3.2
 * ("Sequential Media Types", Media Type Object `itemSchema`): `application/jsonl`, one JSON value
 * per line, and, on the public route with `alt=sse`, `text/event-stream`, whose items are the
 * parsed events (3.2, "Special Considerations for Server-Sent Events") with the JSON text in `data`,
 * described by `contentMediaType` and `contentSchema` as the spec's own example does.
 */
import type { EmittedFile, Model } from '../model.js';
import { anyOf, buildOpenApiDocument, type OpenApiFlavour, ref, type StreamRoute } from './openapi-document.js';
import type { Json } from './openapi-schema.js';

export function emitOpenApi32(model: Model): EmittedFile {
  return { path: 'openapi-3.2.json', contents: `${JSON.stringify(buildOpenApi32(model), null, 2)}\n` };
}

export function buildOpenApi32(model: Model): Json {
  return buildOpenApiDocument(model, openApi32);
}

// The platform (and `agentgen dev`, and the container) label both framings `application/json`: the
// media types below say what the body is, the description says what the header will be.
const wireLabel = 'Sent with `Content-Type: application/json`, as the platform labels both framings.';

const openApi32: OpenApiFlavour = {
  version: '3.2.0',
  streamResponse: (route: StreamRoute, events: readonly Json[]): Json => {
    // A stream that fails after its first event ends with one error item (`{"error": {...}}`, ErrorBody).
    const item = anyOf([...events, ref('ErrorBody')]);
    const jsonl = { 'application/jsonl': { itemSchema: item } };
    if (route === 'container') {
      return {
        description: `One event per line, as produced (JSON Lines); an error after the first line is a last line \`{"error": {...}}\`. Sent with \`Content-Type: application/json\`.`,
        content: jsonl,
      };
    }
    return {
      description: `One event per item, as produced: JSON Lines, or with \`alt=sse\` one server-sent event per item, its JSON text in \`data\`; a stream that fails after its first event ends with an error item \`{"error": {...}}\`. ${wireLabel}`,
      content: {
        ...jsonl,
        'text/event-stream': {
          itemSchema: {
            type: 'object',
            description: 'One server-sent event: only the `data` field is sent, holding one item as JSON text.',
            properties: { data: { type: 'string', contentMediaType: 'application/json', contentSchema: item } },
            required: ['data'],
          },
        },
      },
    };
  },
};
