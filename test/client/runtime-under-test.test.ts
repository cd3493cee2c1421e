/**
 * Which copy of the runtime `@agentgen/runtime*` imports reach in this vitest project: the package
 * sources (runtime/src) in `default`, the copy `runtime: bundle` writes
 * (test/fixtures/bundle/expected/runtime) in `bundled-runtime` (vitest.config.ts aliases every
 * export there). A module is one instance per resolved file, so an export of the imported entry is
 * identical to the one of exactly one of the two files.
 */

import * as root from '@agentgen/runtime';
import * as client from '@agentgen/runtime/client';
import * as codegenClient from '@agentgen/runtime/codegenv1/client';
import * as codegenServer from '@agentgen/runtime/codegenv1/server';
import * as server from '@agentgen/runtime/server';
import { describe, expect, inject, it } from 'vitest';
import * as packageClient from '../../runtime/src/client/index.js';
import * as packageRoot from '../../runtime/src/index.js';
import * as packageServer from '../../runtime/src/server/index.js';
import * as bundledClient from '../fixtures/bundle/expected/runtime/client/index.js';
import * as bundledRoot from '../fixtures/bundle/expected/runtime/index.js';
import * as bundledServer from '../fixtures/bundle/expected/runtime/server/index.js';

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExportsInTest: a declaration merged into vitest's types, not an export of this file
  export interface ProvidedContext {
    /** Set per project in vitest.config.ts. */
    runtimeUnderTest: 'package' | 'bundled';
  }
}

const under = inject('runtimeUnderTest');
const bundled = { root: bundledRoot, client: bundledClient, server: bundledServer };
const pkg = { root: packageRoot, client: packageClient, server: packageServer };
const [expected, other] = under === 'bundled' ? [bundled, pkg] : [pkg, bundled];

describe(`@agentgen/runtime resolves to the ${under} runtime`, () => {
  it('names a known runtime', () => {
    expect(['package', 'bundled']).toContain(under);
  });

  it('@agentgen/runtime', () => {
    expect(root.containerErrors).toBe(expected.root.containerErrors);
    expect(root.containerErrors).not.toBe(other.root.containerErrors);
  });

  it('@agentgen/runtime/server and codegenv1/server', () => {
    expect(server.createContainer).toBe(expected.server.createContainer);
    expect(server.createContainer).not.toBe(other.server.createContainer);
    expect(codegenServer.createContainer).toBe(expected.server.createContainer);
    expect(codegenServer.AgentError).toBe(expected.server.AgentError);
    // The contract constants the server re-exports come from the same copy.
    expect(server.containerErrors).toBe(expected.root.containerErrors);
  });

  it('@agentgen/runtime/client and codegenv1/client', () => {
    expect(client.createClientCore).toBe(expected.client.createClientCore);
    expect(client.createClientCore).not.toBe(other.client.createClientCore);
    expect(codegenClient.createClientCore).toBe(expected.client.createClientCore);
    expect(codegenClient.AgentApiError).toBe(expected.client.AgentApiError);
  });
});
