/**
 * Every method of Sessions, Memory Bank, the engine's management API and the long-running
 * operations, over gRPC, by transcoding (AIP-127, as Google's own front end does): the proto
 * request becomes the REST call its `google.api.http` rule names (verb, path, query, body, all
 * ProtoJSON), the same service that answers the REST face answers it (`ApiDispatch`), and its
 * ProtoJSON answer becomes the proto response. So the faces cannot disagree: a method the REST
 * face serves is served here, one it answers 501 is UNIMPLEMENTED here, and each error keeps its
 * status (NOT_FOUND, INVALID_ARGUMENT...) as the gRPC code.
 */
import type * as Protobuf from 'protobufjs';
import type { ApiDispatch, ApiRequest } from '../google-api/api-request.js';
import { invalidArgument, ServiceError } from '../google-api/service-error.js';
import { fromProtoJson } from '../proto/proto-json.js';
import type { MethodDefinition } from '../proto/protos.js';
import { grpcError } from '../proto/status-codes.js';
import { toProtoJson } from '../proto/to-proto-json.js';
import { authorization, checkDecoded, type FaceContext, failureAnswer, logLine } from './grpc-call.js';
import type { GrpcMethod, ServerCall } from './wire/server.js';

/** The services served by transcoding, by full name; `GetReasoningEngine` keeps its own handler (engine-methods.ts). */
export const transcodedServices = [
  'google.cloud.aiplatform.v1.SessionService',
  'google.cloud.aiplatform.v1beta1.SessionService',
  'google.cloud.aiplatform.v1beta1.MemoryBankService',
  'google.cloud.aiplatform.v1.ReasoningEngineService',
  'google.cloud.aiplatform.v1beta1.ReasoningEngineService',
  'google.cloud.aiplatform.v1beta1.ReasoningEngineRuntimeRevisionService',
  'google.longrunning.Operations',
];

const ownHandlers = new Set(['GetReasoningEngine']);

/** A method's primary HTTP binding. */
interface HttpRule {
  readonly verb: string;
  readonly template: string;
  /** `*`, a field name, or undefined (no body: the other fields go in the query). */
  readonly body: string | undefined;
}

/**
 * google.longrunning.Operations' own rule for ListOperations, `/v1/{name=operations}`, names a
 * top-level `operations` collection the platform does not have; aiplatform's service config binds
 * it under the resource instead (`/v1/{name}/operations`, name an engine's, among others), as
 * google-gax's REST fallback sends it (the `httpRules` of `@google-cloud/aiplatform`'s clients).
 * The other Operations rules (`/v1/{name=operations/**}`...) already put the whole name in the path.
 */
const serviceConfigRules: Readonly<Record<string, HttpRule>> = {
  'google.longrunning.Operations.ListOperations': { verb: 'GET', template: '/v1/{name}/operations', body: undefined },
};

function httpRuleOf(method: Protobuf.Method): HttpRule | undefined {
  const bound = serviceConfigRules[`${method.parent?.fullName.slice(1)}.${method.name}`];
  if (bound !== undefined) return bound;
  const found = method.parsedOptions?.find((option) => '(google.api.http)' in option) as Record<string, Record<string, unknown>> | undefined;
  const rule = found?.['(google.api.http)'];
  if (rule === undefined) return undefined;
  for (const verb of ['get', 'post', 'patch', 'delete', 'put']) {
    const template = rule[verb];
    if (typeof template === 'string') return { verb: verb.toUpperCase(), template, body: typeof rule['body'] === 'string' ? rule['body'] : undefined };
  }
  return undefined;
}

const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** The value at a field path of the request (`session.name`), as the path template fills it in. */
function pathValue(json: Record<string, unknown>, fieldPath: string): string {
  let value: unknown = json;
  for (const part of fieldPath.split('.')) value = (value as Record<string, unknown> | undefined)?.[camel(part)];
  if (typeof value !== 'string' || value === '') throw invalidArgument(`'${fieldPath}' is required.`);
  return value;
}

/** The fields neither in the path nor in the body, as query parameters (a repeated field once per value). */
function queryOf(json: Record<string, unknown>, left: readonly string[]): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of left) {
    const value = json[key];
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null && typeof item !== 'object') query.append(key, String(item));
    }
  }
  return query;
}

/** The REST call a proto request names by its method's rule. */
export function transcode(rule: HttpRule, json: Record<string, unknown>): ApiRequest {
  const inPath = new Set<string>();
  const path = rule.template.replace(/\{([^}=]+)(?:=[^}]*)?\}/g, (_, fieldPath: string) => {
    if (!fieldPath.includes('.')) inPath.add(camel(fieldPath));
    return pathValue(json, fieldPath);
  });
  const versioned = /^\/(v1|v1beta1)\/(.*)$/.exec(path);
  if (versioned === null) throw new ServiceError('UNIMPLEMENTED', `agentgen dev does not serve ${path}.`);
  const bodyField = rule.body === undefined || rule.body === '*' ? undefined : camel(rule.body);
  const left = Object.keys(json).filter((key) => !inPath.has(key) && key !== bodyField);
  const body =
    rule.body === '*'
      ? Object.fromEntries(left.map((key) => [key, json[key]]))
      : bodyField === undefined
        ? {}
        : ((json[bodyField] ?? {}) as Record<string, unknown>);
  return {
    version: versioned[1] === 'v1' ? 'v1' : 'v1beta1',
    method: rule.verb,
    name: versioned[2] as string,
    query: rule.body === '*' ? new URLSearchParams() : queryOf(json, left),
    body,
  };
}

/** One transcoded method: authenticate, transcode, dispatch, answer in the response type. */
function transcodedMethod(
  context: FaceContext,
  dispatch: ApiDispatch,
  method: Protobuf.Method,
  definition: MethodDefinition,
  rule: HttpRule,
): GrpcMethod<unknown> {
  const requestType = method.resolvedRequestType as Protobuf.Type;
  const responseType = method.resolvedResponseType as Protobuf.Type;
  const rpc = method.name;
  return {
    path: definition.path,
    decode: definition.decodeRequest,
    handle: async (call: ServerCall<unknown>) => {
      const started = performance.now();
      try {
        context.core.authenticate(authorization(call));
        checkDecoded(call.request);
        const json = toProtoJson(requestType, call.request as Record<string, unknown>, context.maxDepth);
        const answer = await dispatch(transcode(rule, json));
        call.write(definition.encodeResponse(fromProtoJson(responseType, answer, responseType.name, { unknown: 'drop' })));
        call.end();
        logLine(context, rpc, undefined, 'OK', started);
      } catch (error) {
        const failed =
          error instanceof ServiceError
            ? { answer: grpcError(context.protos, error.status, error.message), status: error.status }
            : failureAnswer(context, error);
        call.end(failed.answer);
        logLine(context, rpc, undefined, failed.status, started);
      }
    },
  };
}

/** Every method of `transcodedServices` that has an HTTP rule (the rest stay UNIMPLEMENTED). */
export function transcodedMethods(context: FaceContext, dispatch: ApiDispatch): GrpcMethod<unknown>[] {
  return transcodedServices.flatMap((serviceName) => {
    const service = context.protos.serviceNamed(serviceName);
    if (service === undefined) throw new Error(`${serviceName} is missing from the loaded protos`);
    return service.methodsArray.flatMap((method) => {
      const rule = httpRuleOf(method);
      if (rule === undefined || ownHandlers.has(method.name) || method.responseStream) return [];
      return [transcodedMethod(context, dispatch, method, context.protos.method(serviceName, method), rule)];
    });
  });
}
