/**
 * The public query envelope (`{classMethod, input}`) and routing by declared `api_mode` (4.3): pure
 * functions from a request body to the call to forward, or a PublicError saying what is wrong.
 */
import { nestedDeeperThan } from '@agentgen/runtime/server';
import { type ApiModeRouting, defaultMethodByEndpoint } from '../../contract/index.js';
import { PublicError } from '../google-api/status.js';
import { maxNesting } from '../limits.js';
import { quotedName, shownName } from '../text/quoted-name.js';
import type { DeclaredMethod, MethodTable } from './manifest.js';

export type PublicEndpoint = ':query' | ':streamQuery';

export interface ResolvedCall {
  readonly method: string;
  readonly declared: DeclaredMethod;
  readonly routing: ApiModeRouting;
  /** Absent when the caller sent none: the container treats that as `{}`. */
  readonly input: Record<string, unknown> | undefined;
}

const envelopeKeys = new Set(['classMethod', 'class_method', 'input']);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** `classMethod` is canonical, `class_method` accepted, as the public API does; both at once must agree. */
function methodName(envelope: Record<string, unknown>): string | undefined {
  const names: string[] = [];
  for (const key of ['classMethod', 'class_method'] as const) {
    const value = envelope[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new PublicError('invalidEnvelope', `"${key}" must be a string, got ${describe(value)}`);
    if (value.length > 0) names.push(value);
  }
  if (names.length === 2 && names[0] !== names[1]) {
    throw new PublicError(
      'invalidEnvelope',
      `"classMethod" (${shownName(names[0] as string)}) and "class_method" (${shownName(names[1] as string)}) disagree: send one of them`,
    );
  }
  return names[0];
}

/** protobuf's JSON parser refuses nesting past 100; so does the container runtime by default (limits.ts). */
export const defaultMaxDepth = maxNesting;

/**
 * `maxDepth`: the deepest nesting of objects and arrays accepted in `input` (the input object is
 * level 1, as the container counts), measured without recursion.
 */
export function resolveCall(body: string, endpoint: PublicEndpoint, table: MethodTable, maxDepth = defaultMaxDepth): ResolvedCall {
  let envelope: unknown;
  try {
    envelope = JSON.parse(body);
  } catch (error) {
    throw new PublicError('malformedJson', `Invalid JSON payload received: ${(error as Error).message}`);
  }
  return resolveEnvelope(envelope, endpoint, table, maxDepth);
}

/** The same from an envelope already decoded (the gRPC face's request message, as plain JSON values). */
export function resolveEnvelope(envelope: unknown, endpoint: PublicEndpoint, table: MethodTable, maxDepth = defaultMaxDepth): ResolvedCall {
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw new PublicError('invalidEnvelope', `The request body must be a JSON object {"classMethod": ..., "input": {...}}, got ${describe(envelope)}`);
  }
  const fields = envelope as Record<string, unknown>;
  // ProtoJSON refuses unknown fields; so does the emulator, so a typo is not silently dropped.
  // (Looked for without building an array: a valid envelope has at most three keys, all known.)
  let anyUnknown = false;
  for (const key in fields) {
    if (Object.hasOwn(fields, key) && !envelopeKeys.has(key)) {
      anyUnknown = true;
      break;
    }
  }
  const unknown = anyUnknown ? Object.keys(fields).filter((key) => !envelopeKeys.has(key)) : [];
  if (unknown.length > 0) {
    throw new PublicError(
      'invalidEnvelope',
      `Invalid JSON payload received. Unknown name ${unknown.map(quotedName).join(', ')}: the body takes classMethod (or class_method) and input`,
    );
  }
  const rawInput = fields['input'];
  if (rawInput !== undefined && rawInput !== null && (typeof rawInput !== 'object' || Array.isArray(rawInput))) {
    throw new PublicError('invalidInput', `"input" must be a JSON object of keyword arguments, got ${describe(rawInput)}`);
  }
  const input = rawInput === undefined || rawInput === null ? undefined : (rawInput as Record<string, unknown>);
  // Before anything walks the input recursively (re-encoding it for the container would overflow
  // the stack on 100,000 levels): refused as the platform's protobuf JSON parser refuses it.
  if (nestedDeeperThan(input, maxDepth)) {
    throw new PublicError('invalidInput', `Invalid JSON payload received: "input" is nested deeper than the limit of ${maxDepth} levels (--max-depth)`);
  }

  const given = methodName(fields);
  const method = given ?? defaultMethodByEndpoint[endpoint];
  const declared = table.get(method);
  if (declared === undefined) {
    const here = [...table.values()].filter((d) => d.routing.publicMethod === endpoint).map((d) => d.entry.name);
    const listing = here.length > 0 ? `Declared for ${endpoint}: ${here.join(', ')}` : `No method is declared for ${endpoint}`;
    const what =
      given === undefined
        ? `No classMethod given, and the default for ${endpoint}, "${method}", is not declared`
        : `Method ${quotedName(method)} is not declared in the resource's classMethods`;
    throw new PublicError('unknownOperation', `${what}. ${listing}.`);
  }
  if (declared.routing.publicMethod !== endpoint) {
    throw new PublicError(
      'wrongRoute',
      `Method "${method}" has api_mode ${JSON.stringify(declared.routing.mode)} and is served by ${declared.routing.publicMethod}, not ${endpoint}`,
    );
  }
  return { method, declared, routing: declared.routing, input };
}

/**
 * What the runtime sends the container, as JSON text: `class_method`, and `input` when there is
 * one. The name's part is encoded once per declared method (`envelopeHead`); only the input is
 * encoded per call. Either way the text is what JSON.stringify writes for the object
 * `{class_method, input}`: the input is the value JSON.parse made of the caller's body, so
 * nothing the caller wrote reaches the container other than as JSON data.
 */
export function containerEnvelopeText(call: ResolvedCall): string {
  return call.input === undefined ? `${call.declared.envelopeHead}}` : `${call.declared.envelopeHead},"input":${JSON.stringify(call.input)}}`;
}
