/**
 * `openapi.json`: OpenAPI 3.1 for the public API (`:query`, `:streamQuery` with `?alt=sse`, GET
 * resource) and the two container routes, one component schema per operation input and result.
 * 3.1 has no way to describe one item of a stream: a stream's answer is given the schema of one
 * event under `application/json`, and the framing is said in words (openapi-3.2.json says it).
 */
import type { EmittedFile, Model } from '../model.js';
import { anyOf, buildOpenApiDocument, json, type OpenApiFlavour } from './openapi-document.js';
import type { Json } from './openapi-schema.js';

export function emitOpenApi(model: Model): EmittedFile {
  return { path: 'openapi.json', contents: `${JSON.stringify(buildOpenApi(model), null, 2)}\n` };
}

export function buildOpenApi(model: Model): Json {
  return buildOpenApiDocument(model, openApi31);
}

const openApi31: OpenApiFlavour = {
  version: '3.1.0',
  streamResponse: (route, events) =>
    route === 'public'
      ? { description: 'One JSON event per line, as produced.', content: json(anyOf(events)) }
      : { description: 'One JSON event per line; an error after the first line is a last line `{"error": {...}}`.', content: json(anyOf(events)) },
};
