/**
 * The OpenAPI document agentgen writes, whatever its version: the public API (`:query`,
 * `:streamQuery` with `?alt=sse`, GET resource) and the two container routes, one component schema
 * per operation input and result. The versions differ only in what a {@link OpenApiFlavour} says:
 * the `openapi` field and how a stream's answer is described (3.1 cannot describe one event; 3.2
 * can, with `itemSchema`).
 */
import { apiModes, type ErrorCondition, envelopeSchemas, errorConditions, refPrefix, streamContainerRoute, unaryContainerRoute } from '../../contract/index.js';
import type { LicenseModel, Model, OperationModel } from '../model.js';
import { type Json, toOpenApi } from './openapi-schema.js';

/** A stream route: the public `:streamQuery` (NDJSON, or SSE with `alt=sse`) or the container's (NDJSON only). */
export type StreamRoute = 'public' | 'container';

export interface OpenApiFlavour {
  /** The document's `openapi` field. */
  readonly version: string;
  /** The 200 Response Object of a stream route, given the event schema of each streaming operation. */
  readonly streamResponse: (route: StreamRoute, events: readonly Json[]) => Json;
}

export function buildOpenApiDocument(model: Model, flavour: OpenApiFlavour): Json {
  const unary = model.operations.filter((op) => op.routing.response === 'unary');
  const stream = model.operations.filter((op) => op.routing.response === 'stream');
  const schemas: Json = {};
  for (const s of model.schemas) schemas[s.name] = toOpenApi(s.schema);
  for (const [name, schema] of Object.entries(envelopeSchemas)) schemas[name] = toOpenApi(schema);
  schemas.ClassMethod = {
    type: 'object',
    properties: { name: { type: 'string' }, api_mode: { type: 'string', enum: [...apiModes] } },
    required: ['name', 'api_mode'],
  };
  schemas.ReasoningEngine = {
    type: 'object',
    description: 'The deployed resource; `spec.classMethods` lists the declared operations.',
    properties: {
      name: { type: 'string' },
      spec: { type: 'object', properties: { classMethods: { type: 'array', items: ref('ClassMethod') } } },
    },
  };
  for (const op of model.operations) {
    schemas[op.names.inputType] = toOpenApi(op.input);
    schemas[op.names.outputType] = toOpenApi(op.output);
  }
  const events = stream.map((op) => ref(op.names.outputType));

  const resourceName = {
    name: 'resource_name',
    in: 'path',
    required: true,
    description: 'Full resource name of the engine, e.g. projects/p/locations/l/reasoningEngines/1 (slashes included).',
    schema: { type: 'string' },
  };
  // The public API's refusals (as `agentgen dev` answers them, after the reference platform), then the container's own.
  const publicCallErrors = errorResponses([
    'malformedJson',
    'invalidEnvelope',
    'invalidInput',
    'wrongRoute',
    'containerFailed',
    'unauthenticated',
    'unknownPath',
    'unknownOperation',
  ]);
  const resourceErrors = errorResponses(['unauthenticated', 'unknownPath']);
  const containerCallErrors = errorResponses([
    'malformedJson',
    'invalidEnvelope',
    'invalidInput',
    'wrongRoute',
    'unknownOperation',
    'bodyTooLarge',
    'unsupportedMediaType',
  ]);
  const paths: Json = {};
  if (unary.length > 0) {
    paths['/v1/{resource_name}:query'] = {
      post: {
        operationId: 'query',
        summary: 'Calls a unary operation (api_mode "" or "async").',
        parameters: [resourceName],
        requestBody: { required: true, content: json(anyOf(unary.map(publicRequest))) },
        responses: { 200: { description: 'The result under `output`.', content: json(anyOf(unary.map(unaryResponse))) }, ...publicCallErrors },
      },
    };
  }
  if (stream.length > 0) {
    paths['/v1/{resource_name}:streamQuery'] = {
      post: {
        operationId: 'streamQuery',
        summary: 'Calls a streaming operation (api_mode "stream" or "async_stream").',
        description: 'Events arrive as newline-delimited JSON; with `alt=sse`, each line is framed as `data: {...}`.',
        parameters: [
          resourceName,
          { name: 'alt', in: 'query', required: false, description: 'sse: server-sent-events framing.', schema: { type: 'string', enum: ['sse'] } },
        ],
        requestBody: { required: true, content: json(anyOf(stream.map(publicRequest))) },
        responses: { 200: flavour.streamResponse('public', events), ...publicCallErrors },
      },
    };
  }
  paths['/v1/{resource_name}'] = {
    get: {
      operationId: 'getReasoningEngine',
      summary: 'Reads the deployed resource, including `spec.classMethods`.',
      parameters: [resourceName],
      responses: { 200: { description: 'The resource.', content: json(ref('ReasoningEngine')) }, ...resourceErrors },
    },
  };
  const container = { security: [], tags: ['container'] };
  if (unary.length > 0) {
    paths[unaryContainerRoute] = {
      post: {
        ...container,
        operationId: 'containerReasoningEngine',
        summary: 'Container route for unary operations (runtime to container).',
        requestBody: { required: true, content: json(oneOf(unary.map(containerRequest))) },
        responses: { 200: { description: 'The result under `output`.', content: json(anyOf(unary.map(unaryResponse))) }, ...containerCallErrors },
      },
    };
  }
  if (stream.length > 0) {
    paths[streamContainerRoute] = {
      post: {
        ...container,
        operationId: 'containerStreamReasoningEngine',
        summary: 'Container route for streaming operations: newline-delimited JSON events.',
        requestBody: { required: true, content: json(oneOf(stream.map(containerRequest))) },
        responses: { 200: flavour.streamResponse('container', events), ...containerCallErrors },
      },
    };
  }

  return {
    openapi: flavour.version,
    info: {
      title: model.name,
      version: model.hash,
      description: `Generated by agentgen ${model.generatorVersion} from ${model.source}. Do not edit.`,
      ...(model.license === undefined ? {} : { license: licenseObject(model.license) }),
    },
    // The description sits on the server, not its variable: swagger-parser's 3.1 schema misspells
    // the variable's field (`descriptions`) and rejects `description` there.
    servers: [
      { url: '{baseUrl}', description: 'baseUrl: the regional API host, or `agentgen dev`.', variables: { baseUrl: { default: 'http://127.0.0.1:8600' } } },
    ],
    security: [{ bearerAuth: [] }],
    tags: [{ name: 'container', description: 'Routes inside the agent container, called by the runtime only.' }],
    paths,
    components: {
      schemas,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <ACCESS_TOKEN>' } },
    },
  };
}

/** The License Object (3.1 and 3.2): a name and an SPDX `identifier` or a `url` (the spec allows one, never both). */
function licenseObject(license: LicenseModel): Json {
  return {
    name: license.name,
    ...(license.identifier === undefined ? {} : { identifier: license.identifier }),
    ...(license.url === undefined ? {} : { url: license.url }),
  };
}

function publicRequest(op: OperationModel): Json {
  return {
    type: 'object',
    title: op.name,
    properties: { classMethod: { const: op.name }, class_method: { const: op.name }, input: ref(op.names.inputType) },
    required: ['input'],
  };
}

function containerRequest(op: OperationModel): Json {
  return {
    type: 'object',
    title: op.name,
    properties: { class_method: { const: op.name }, input: ref(op.names.inputType) },
    required: ['class_method'],
  };
}

function unaryResponse(op: OperationModel): Json {
  return { type: 'object', title: op.name, properties: { output: ref(op.names.outputType) }, required: ['output'] };
}

export function ref(name: string): Json {
  return { $ref: `${refPrefix}${name}` };
}

function oneOf(schemas: readonly Json[]): Json {
  return schemas.length === 1 ? schemas[0]! : { oneOf: [...schemas] };
}

/**
 * `anyOf`, not `oneOf`, where one value may fit several alternatives: two operations may return the
 * same shape (the caller knows which it called), and a public request may leave out the method name
 * (`classMethod` and `class_method` are both optional; the endpoint then calls its default, `query`
 * or `stream_query`), so it can fit several envelopes.
 */
export function anyOf(schemas: readonly Json[]): Json {
  return schemas.length === 1 ? schemas[0]! : { anyOf: [...schemas] };
}

const conditionText: Readonly<Record<ErrorCondition, string>> = {
  malformedJson: 'the body is not JSON',
  invalidEnvelope: 'the envelope is malformed',
  invalidInput: 'the input is not valid for the operation',
  wrongRoute: 'the operation is served by the other endpoint',
  containerFailed: 'the container failed',
  unauthenticated: 'no valid bearer token',
  unknownPath: 'no such resource',
  unknownOperation: 'the operation is not declared',
  bodyTooLarge: 'the body is too large',
  unsupportedMediaType: 'the content type is not JSON',
  methodNotAllowed: 'the HTTP method is not allowed',
  handlerFailed: 'the handler failed',
  containerUnreachable: 'the container cannot be reached',
  malformedRequest: 'the HTTP request cannot be parsed',
  headersTooLarge: 'the request headers are too large',
  requestTimeout: 'the request did not arrive in time',
  permissionDenied: 'the host or origin is not allowed',
  streamLimit: "the stream ran past the runtime's time limit",
  shuttingDown: 'the server is shutting down',
};

/** One response per HTTP status of the given conditions (from the one error table), and `default` for the rest. */
function errorResponses(conditions: readonly ErrorCondition[]): Json {
  const byStatus = new Map<number, ErrorCondition[]>();
  for (const condition of conditions) {
    const { http } = errorConditions[condition];
    byStatus.set(http, [...(byStatus.get(http) ?? []), condition]);
  }
  const responses: Json = {};
  for (const [http, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    const statuses = [...new Set(group.map((c) => errorConditions[c].status))].join(' or ');
    responses[http] = { description: `${statuses}: ${group.map((c) => conditionText[c]).join('; ')}.`, content: json(ref('ErrorBody')) };
  }
  responses.default = { description: 'Error (google.rpc.Status).', content: json(ref('ErrorBody')) };
  return responses;
}

export function json(schema: Json): Json {
  return { 'application/json': { schema } };
}
