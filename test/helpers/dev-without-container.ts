/**
 * agentgen dev for the tests of its engine services and control plane, which never reach a
 * container (the container URL, loopback port 9, is never called): started before the tests of the
 * file or `describe` block that calls this, closed after them. Returns the running dev.
 */
import { afterAll, beforeAll } from 'vitest';
import { type Emulator, type EmulatorOptions, startEmulator } from '../../emulator/index.js';

export function devWithoutContainer(options: Partial<EmulatorOptions> = {}): () => Emulator {
  let emulator: Emulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ container: 'http://127.0.0.1:9', manifest: [], port: 0, logger: () => {}, ...options });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return () => {
    if (emulator === undefined) throw new Error('dev is started before the tests: call this inside one');
    return emulator;
  };
}
