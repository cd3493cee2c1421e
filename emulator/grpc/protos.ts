/**
 * The service definitions the gRPC face serves, loaded from the `.proto` files Google publishes
 * (copied unmodified into ./protos/ by scripts/copy-grpc-protos.mjs; google/protobuf/* comes with
 * protobufjs). `@grpc/proto-loader` turns them into grpc-js service definitions; the same files
 * loaded by its protobufjs give the message types the face encodes itself (`google.rpc.Status`
 * for the status details, the `ReasoningEngine` a GET answers).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';
import type * as Protobuf from 'protobufjs';

/** The API versions served; their request, response and resource messages have the same shape. */
export const apiVersions = ['v1', 'v1beta1'] as const;
export type ApiVersion = (typeof apiVersions)[number];

export const protosDir = fileURLToPath(new URL('./protos/', import.meta.url));

const serviceFiles = apiVersions.flatMap((version) => [
  `google/cloud/aiplatform/${version}/reasoning_engine_execution_service.proto`,
  `google/cloud/aiplatform/${version}/reasoning_engine_service.proto`,
]);

/**
 * camelCase field names (`classMethod`, `createTime`), enums as their names, oneofs named
 * (`Value.kind`), no defaults filled in: an absent `input` stays absent.
 */
const loaderOptions: Options = { keepCase: false, longs: String, enums: String, defaults: false, oneofs: true, includeDirs: [protosDir] };

/**
 * What a request that protobuf cannot decode (nested past its limit of 100 messages, or not
 * protobuf at all) becomes, so the face answers INVALID_ARGUMENT naming why, as the REST face
 * answers a body JSON cannot parse; grpc-js itself would answer a bare INTERNAL.
 */
export interface UndecodableRequest {
  readonly undecodable: string;
}

export function isUndecodable(request: unknown): request is UndecodableRequest {
  return typeof request === 'object' && request !== null && undecodableMark in request;
}

const undecodableMark = Symbol('undecodable');

/**
 * The service's methods with a request decoder that does not throw (see UndecodableRequest), and
 * a response encoder that passes bytes through: the face encodes a unary answer itself, to say
 * clearly when the container's output is too deep for protobuf instead of grpc-js's bare INTERNAL.
 */
function tolerantCodec(service: ServiceDefinition): ServiceDefinition {
  return Object.fromEntries(
    Object.entries(service).map(([name, method]) => [
      name,
      {
        ...method,
        requestDeserialize: (bytes: Buffer): unknown => {
          try {
            return method.requestDeserialize(bytes);
          } catch (error) {
            return { [undecodableMark]: true, undecodable: (error as Error).message };
          }
        },
        responseSerialize: (value: unknown): Buffer => (Buffer.isBuffer(value) ? value : method.responseSerialize(value)),
      },
    ]),
  );
}

export interface LoadedProtos {
  /** `google.cloud.aiplatform.<version>.<Service>` → its grpc-js definition. */
  service(version: ApiVersion, name: 'ReasoningEngineExecutionService' | 'ReasoningEngineService'): ServiceDefinition;
  /** A message type by its full name, e.g. `google.rpc.Status`. */
  type(fullName: string): Protobuf.Type;
}

/** The protobufjs that @grpc/proto-loader itself uses, so both read the files the same way. */
function loaderProtobuf(): typeof Protobuf {
  const loader = createRequire(import.meta.url).resolve('@grpc/proto-loader');
  return createRequire(loader)('protobufjs') as typeof Protobuf;
}

let loaded: LoadedProtos | undefined;

export function loadProtos(): LoadedProtos {
  if (loaded !== undefined) return loaded;
  const definitions = loadSync(serviceFiles, loaderOptions);
  const protobuf = loaderProtobuf();
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(protosDir, target);
  root.loadSync([...serviceFiles, 'google/rpc/status.proto'], { keepCase: false });
  root.resolveAll();
  loaded = {
    service(version, name) {
      const definition = definitions[`google.cloud.aiplatform.${version}.${name}`];
      // A service maps to its method table; a message has a `format` key.
      if (definition === undefined || 'format' in definition) throw new Error(`no service ${name} (${version}) in ${protosDir}`);
      return tolerantCodec(definition as ServiceDefinition);
    },
    type: (fullName) => root.lookupType(fullName),
  };
  return loaded;
}
