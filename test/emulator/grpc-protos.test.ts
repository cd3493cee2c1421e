/**
 * What the gRPC face ships and loads: the `.proto` files copied from Google's packages (exactly the
 * import closure of the served services, byte for byte the installed files), the v1beta1 messages
 * being the v1 ones, every error condition having a gRPC code, and the pure conversions it uses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import type * as Protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { errorConditions } from '../../contract/index.js';
import { NdjsonLines } from '../../emulator/containers/ndjson-lines.js';
import { loadProtos, protosDir } from '../../emulator/proto/protos.js';
import { grpcCode } from '../../emulator/proto/status-codes.js';
import { jsonToValue, type ProtoStruct, structToJson } from '../../emulator/proto/struct-json.js';
import { protoClosure } from '../../scripts/copy-grpc-protos.mjs';

const shippedFiles = (readdirSync(protosDir, { recursive: true, encoding: 'utf8' }) as string[])
  .map((path) => path.split('\\').join('/'))
  .filter((path) => path.endsWith('.proto'))
  .sort();

describe('the shipped .proto files', () => {
  it('are exactly the import closure of the served services, and byte-identical to the installed packages', () => {
    const closure = protoClosure();
    expect(shippedFiles).toEqual(closure.map(({ path }) => path));
    for (const { path, from } of closure) {
      expect(readFileSync(join(protosDir, path)).equals(readFileSync(from)), `${path} differs from ${from}: run node scripts/copy-grpc-protos.mjs`).toBe(true);
    }
    // Google's license header, as published.
    expect(shippedFiles.every((path) => readFileSync(join(protosDir, path), 'utf8').startsWith('// Copyright'))).toBe(true);
    expect(shippedFiles.some((path) => path.startsWith('google/protobuf/'))).toBe(false);
  });

  it('load into the three served methods of each version', () => {
    const protos = loadProtos();
    for (const version of ['v1', 'v1beta1'] as const) {
      const execution = protos.service(version, 'ReasoningEngineExecutionService');
      expect(execution.StreamQueryReasoningEngine?.responseStream).toBe(true);
      expect(execution.QueryReasoningEngine?.path).toBe(`/google.cloud.aiplatform.${version}.ReasoningEngineExecutionService/QueryReasoningEngine`);
      expect(protos.service(version, 'ReasoningEngineService').GetReasoningEngine?.path).toBe(
        `/google.cloud.aiplatform.${version}.ReasoningEngineService/GetReasoningEngine`,
      );
    }
  });

  it("v1beta1's query messages are v1's, and its ReasoningEngine has every field of v1's that the face fills", () => {
    const protos = loadProtos();
    const shape = (type: Protobuf.Type): string[] =>
      type.fieldsArray
        .map(
          (field) =>
            `${field.id} ${field.name}: ${field.repeated ? 'repeated ' : ''}${field.resolve().resolvedType?.fullName.replace('v1beta1', 'v1') ?? field.type}`,
        )
        .sort();
    for (const name of ['QueryReasoningEngineRequest', 'QueryReasoningEngineResponse', 'StreamQueryReasoningEngineRequest', 'GetReasoningEngineRequest']) {
      expect(shape(protos.type(`google.cloud.aiplatform.v1beta1.${name}`)), name).toEqual(shape(protos.type(`google.cloud.aiplatform.v1.${name}`)));
    }
    const used: Array<[string, string[]]> = [
      ['ReasoningEngine', ['name', 'displayName', 'createTime', 'updateTime', 'spec']],
      ['ReasoningEngineSpec', ['agentFramework', 'containerSpec', 'deploymentSpec', 'classMethods']],
      ['ReasoningEngineSpec.ContainerSpec', ['imageUri']],
    ];
    for (const [name, fields] of used) {
      const pick = (type: Protobuf.Type) => shape(type).filter((line) => fields.includes(line.split(' ')[1]?.replace(':', '') ?? ''));
      expect(pick(protos.type(`google.cloud.aiplatform.v1beta1.${name}`)), name).toEqual(pick(protos.type(`google.cloud.aiplatform.v1.${name}`)));
      expect(pick(protos.type(`google.cloud.aiplatform.v1.${name}`))).toHaveLength(fields.length);
    }
  });
});

describe('the gRPC face, piece by piece', () => {
  it('gives every error condition of the table a gRPC code of the same name', () => {
    for (const [condition, row] of Object.entries(errorConditions)) {
      expect(status[grpcCode(row.status)], condition).toBe(row.status);
    }
    expect(() => grpcCode('NOT_A_CODE')).toThrow(/NOT_A_CODE is not a gRPC status name/);
  });

  it('cuts NDJSON chunks into whole lines, across chunk and character boundaries', () => {
    const lines = new NdjsonLines();
    const bytes = Buffer.from('{"n":0,"t":"héllo"}\r\n\n{"n":1,"t":"🦜"}\n  \n{"n":2}');
    const parrot = bytes.indexOf(Buffer.from('🦜'));
    const out: Buffer[] = [];
    for (const chunk of [bytes.subarray(0, 5), bytes.subarray(5, parrot + 2), bytes.subarray(parrot + 2)]) lines.push(chunk, (line) => out.push(line));
    const last = lines.end();
    expect([...out, last].map((line) => line?.toString('utf8'))).toEqual(['{"n":0,"t":"héllo"}', '{"n":1,"t":"🦜"}', '{"n":2}']);
    expect(lines.end()).toBeUndefined();
    lines.push(Buffer.from('{"partial'), (line) => out.push(line));
    lines.discard();
    expect(lines.end()).toBeUndefined();
  });

  it('turns a Struct into JSON and JSON into a Value, keeping __proto__ a plain key, bounded in depth', () => {
    const json = { a: 'x', n: 1.5, b: false, z: null, list: [1, 'two', { three: [] }], nested: { deep: { er: true } } };
    const value = jsonToValue(json) as { structValue: ProtoStruct };
    // The decoded form (protobufjs's toObject with oneofs) carries `kind`; the encoder's does not need it: add it as decoding would.
    const decoded = JSON.parse(JSON.stringify(value), (_key, v: Record<string, unknown>) => {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const kind = ['nullValue', 'numberValue', 'stringValue', 'boolValue', 'structValue', 'listValue'].find((k) => k in v);
        if (kind !== undefined) return { ...v, kind };
      }
      return v;
    }) as { structValue: ProtoStruct };
    expect(structToJson(decoded.structValue, 100)).toEqual(json);
    const proto = structToJson({ fields: { ['__proto__']: { kind: 'stringValue', stringValue: 'p' } } }, 100);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
    expect(() => structToJson(decoded.structValue, 3)).toThrow(
      'Invalid JSON payload received: "input" is nested deeper than the limit of 3 levels (--max-depth)',
    );
    expect(structToJson(decoded.structValue, 4)).toEqual(json);
  });
});
