/**
 * The service definitions the gRPC face serves, loaded by protobufjs from the `.proto` files
 * Google publishes (copied unmodified into ./protos/ by scripts/copy-grpc-protos.mjs;
 * google/protobuf/* comes with protobufjs). Each served method gets its path and a codec: the
 * request decoded into protobufjs's object form, the response encoded from it. The same root gives
 * the message types the face and the control plane read (`google.rpc.Status`, `ReasoningEngine`).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Protobuf from 'protobufjs';
import protobuf from 'protobufjs';

/** The API versions served; their request, response and resource messages have the same shape. */
export const apiVersions = ['v1', 'v1beta1'] as const;
export type ApiVersion = (typeof apiVersions)[number];

export const protosDir = fileURLToPath(new URL('./protos/', import.meta.url));

const serviceFiles = [
  ...apiVersions.flatMap((version) => [
    `google/cloud/aiplatform/${version}/reasoning_engine_execution_service.proto`,
    `google/cloud/aiplatform/${version}/reasoning_engine_service.proto`,
    `google/cloud/aiplatform/${version}/session_service.proto`,
  ]),
  // Memory Bank and runtime revisions are published in v1beta1 only (@google-cloud/aiplatform 6.11).
  'google/cloud/aiplatform/v1beta1/memory_bank_service.proto',
  'google/cloud/aiplatform/v1beta1/reasoning_engine_runtime_revision_service.proto',
  'google/longrunning/operations.proto',
];

/** protobufjs's own copies of google/protobuf/*.proto (descriptor.proto is not built in). */
const wellKnownDir = dirname(createRequire(import.meta.url).resolve('protobufjs/package.json'));

/**
 * camelCase field names (`classMethod`, `createTime`; the root is loaded so), enums as their
 * names, 64-bit integers as strings, oneofs named (`Value.kind`), no defaults filled in: an
 * absent `input` stays absent.
 */
const toObjectOptions: Protobuf.IConversionOptions = { longs: String, enums: String, defaults: false, oneofs: true };

/**
 * What a request that protobuf cannot decode (nested past its limit of 100 messages, or not
 * protobuf at all) becomes, so the face answers INVALID_ARGUMENT naming why, as the REST face
 * answers a body JSON cannot parse, after its token check.
 */
export interface UndecodableRequest {
  readonly undecodable: string;
}

export function isUndecodable(request: unknown): request is UndecodableRequest {
  return typeof request === 'object' && request !== null && undecodableMark in request;
}

const undecodableMark = Symbol('undecodable');

/**
 * Why decoding failed. protobufjs 8 says "max depth exceeded" where 7 said "maximum nesting depth
 * exceeded": the face keeps the wording its callers and docs/dev.md know.
 */
const reasonOf = (error: unknown): string => {
  const message = (error as Error)?.message ?? String(error);
  return message === 'max depth exceeded' ? 'maximum nesting depth exceeded' : message;
};

/** One served method: its path, whether it streams its answer, and its codec. */
export interface MethodDefinition {
  /** `/google.cloud.aiplatform.v1.ReasoningEngineExecutionService/QueryReasoningEngine`. */
  readonly path: string;
  readonly responseStream: boolean;
  /** The request in object form, or an UndecodableRequest: never throws. */
  decodeRequest(bytes: Uint8Array): unknown;
  /** The response from its object form; throws when it cannot be encoded (nested too deep). */
  encodeResponse(value: unknown): Uint8Array;
}

export type ServiceName = 'ReasoningEngineExecutionService' | 'ReasoningEngineService' | 'SessionService' | 'MemoryBankService';

export interface LoadedProtos {
  /** `google.cloud.aiplatform.<version>.<Service>` → its methods by name. */
  service(version: ApiVersion, name: ServiceName): Readonly<Record<string, MethodDefinition>>;
  /** A message type by its full name, e.g. `google.rpc.Status`. */
  type(fullName: string): Protobuf.Type;
  /** A service by its full name (`google.longrunning.Operations`): its methods, with their `google.api.http` rules; undefined when not loaded. */
  serviceNamed(fullName: string): Protobuf.Service | undefined;
  /** The codec of one method of a loaded service. */
  method(serviceFullName: string, method: Protobuf.Method): MethodDefinition;
}

function methodDefinition(serviceName: string, method: Protobuf.Method): MethodDefinition {
  const request = method.resolvedRequestType;
  const response = method.resolvedResponseType;
  if (request === null || response === null) throw new Error(`${serviceName}.${method.name}: its message types did not resolve`);
  return {
    path: `/${serviceName}/${method.name}`,
    responseStream: method.responseStream === true,
    decodeRequest: (bytes) => {
      try {
        return request.toObject(request.decode(bytes), toObjectOptions);
      } catch (error) {
        return { [undecodableMark]: true, undecodable: reasonOf(error) };
      }
    },
    encodeResponse: (value) => response.encode(response.fromObject(value as Record<string, unknown>)).finish(),
  };
}

let loaded: LoadedProtos | undefined;

export function loadProtos(): LoadedProtos {
  if (loaded !== undefined) return loaded;
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith('google/protobuf/') ? join(wellKnownDir, target) : join(protosDir, target));
  root.loadSync([...serviceFiles, 'google/rpc/status.proto'], { keepCase: false });
  root.resolveAll();
  const services = new Map<string, Readonly<Record<string, MethodDefinition>>>();
  loaded = {
    service(version, name) {
      const fullName = `google.cloud.aiplatform.${version}.${name}`;
      let methods = services.get(fullName);
      if (methods === undefined) {
        const service = root.lookupService(fullName);
        methods = Object.fromEntries(service.methodsArray.map((method) => [method.name, methodDefinition(fullName, method)]));
        services.set(fullName, methods);
      }
      return methods;
    },
    type: (fullName) => root.lookupType(fullName),
    serviceNamed: (fullName) => {
      const found = root.lookup(fullName);
      return found instanceof protobuf.Service ? found : undefined;
    },
    method: (serviceFullName, method) => methodDefinition(serviceFullName, method),
  };
  return loaded;
}
