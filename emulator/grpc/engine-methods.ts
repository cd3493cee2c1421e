/**
 * `ReasoningEngineService.GetReasoningEngine`: the startup resource as dev describes it, or an
 * engine the control plane created, in what the published proto has of it.
 */
import { PublicError } from '../google-api/status.js';
import { pruneToProto } from '../proto/proto-check.js';
import { fromProtoJson } from '../proto/proto-json.js';
import type { ApiVersion, MethodDefinition } from '../proto/protos.js';
import { authorization, checkDecoded, checkName, type FaceContext, failureAnswer, logLine } from './grpc-call.js';
import type { ServerCall } from './wire/server.js';

/**
 * The startup resource as each version's message, converted once: a field the published proto
 * lacks fails here, at start-up.
 */
export function startupResources(
  context: Pick<FaceContext, 'core' | 'protos'>,
  versions: readonly ApiVersion[],
): ReadonlyMap<ApiVersion, Record<string, unknown>> {
  const typeOf = (version: ApiVersion) => context.protos.type(`google.cloud.aiplatform.${version}.ReasoningEngine`);
  return new Map(versions.map((version) => [version, fromProtoJson(typeOf(version), context.core.description)]));
}

/**
 * The resource in wire form. An engine deployed with `classMethods` nested deeper than protobuf's
 * 100 messages (the REST face takes 100 levels of JSON, about 49 over gRPC, a Struct level being
 * two messages) cannot be encoded: FAILED_PRECONDITION saying so, not a bare INTERNAL.
 */
function encodeResource(method: MethodDefinition, resource: unknown): Uint8Array {
  try {
    return method.encodeResponse(resource);
  } catch (error) {
    throw new PublicError(
      'wrongRoute', // its status is FAILED_PRECONDITION, the answer for a resource gRPC cannot carry
      `The ReasoningEngine cannot be sent over gRPC: ${(error as Error).message} (protobuf allows 100 nested messages, about 49 levels of JSON in spec.class_methods); read it with the REST API (GET /v1beta1/{name}).`,
    );
  }
}

/** The resource `name` names, in what the published proto has of it; NOT_FOUND for any other name. */
function resourceNamed(context: FaceContext, startup: ReadonlyMap<ApiVersion, Record<string, unknown>>, version: ApiVersion, name: string | undefined) {
  const { core, protos } = context;
  const deployed = name === core.resource || name === undefined ? undefined : context.controlPlane?.engine(version, name);
  if (deployed === undefined) {
    checkName(core, name);
    return startup.get(version);
  }
  // What the published proto has of it: the fields only Google's SDK knows yet (effectiveIdentity...) are left out.
  const type = protos.type(`google.cloud.aiplatform.${version}.ReasoningEngine`);
  return fromProtoJson(type, pruneToProto(type, deployed, false));
}

export function getResource(
  context: FaceContext,
  startup: ReadonlyMap<ApiVersion, Record<string, unknown>>,
  version: ApiVersion,
  method: MethodDefinition,
  call: ServerCall<{ name?: string }>,
): void {
  const started = performance.now();
  try {
    context.core.authenticate(authorization(call));
    checkDecoded(call.request);
    call.write(encodeResource(method, resourceNamed(context, startup, version, call.request.name)));
    call.end();
    logLine(context, 'GetReasoningEngine', undefined, 'OK', started);
  } catch (error) {
    const { answer, status, note } = failureAnswer(context, error);
    call.end(answer);
    logLine(context, 'GetReasoningEngine', undefined, status, started, note);
  }
}
