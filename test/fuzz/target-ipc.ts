/**
 * The fuzz target's side of its IPC channel (see spawn-target.ts): `ready` with the port, then an
 * answer to each `check` with what a run must not have changed: Object.prototype's own keys, and
 * `({}).polluted`.
 */
const protoKeysAtStart = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

export function reportReady(port: number): void {
  process.on('message', (message) => {
    if (message !== 'check') return;
    process.send?.({
      check: {
        protoKeysChanged: Object.getOwnPropertyNames(Object.prototype).sort().join(',') !== protoKeysAtStart,
        polluted: ({} as Record<string, unknown>)['polluted'] !== undefined,
      },
    });
  });
  process.send?.({ ready: { port } });
}
