/** The MetadataLookupWarning is dropped only while a credential lookup runs, and no other warning is. */
import { afterEach, beforeEach, expect, test } from 'vitest';
import { withoutMetadataLookupWarning } from '../../cli/src/deploy/without-metadata-warning.js';

let seen: string[] = [];
const record = (warning: Error): void => void seen.push(`${warning.name}: ${warning.message}`);
beforeEach(() => {
  seen = [];
  process.on('warning', record);
});
afterEach(() => void process.off('warning', record));

/** Warnings are emitted on the next tick. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

test('drops MetadataLookupWarning in every form during the lookup; passes others; restores after overlapping lookups', async () => {
  const emit = process.emitWarning;
  let releaseFirst = (): void => {};
  const first = withoutMetadataLookupWarning(() => new Promise<void>((resolve) => (releaseFirst = resolve)));
  const second = withoutMetadataLookupWarning(async () => {
    process.emitWarning('probe failed', 'MetadataLookupWarning');
    process.emitWarning('probe failed', { type: 'MetadataLookupWarning' });
    process.emitWarning(Object.assign(new Error('probe failed'), { name: 'MetadataLookupWarning' }));
    process.emitWarning('something else', 'DeprecationWarning');
    return 42;
  });
  expect(await second).toBe(42);
  process.emitWarning('still inside the first lookup', 'MetadataLookupWarning');
  releaseFirst();
  await first;
  expect(process.emitWarning).toBe(emit);
  process.emitWarning('after the lookups', 'MetadataLookupWarning');
  await settled();
  expect(seen).toEqual(['DeprecationWarning: something else', 'MetadataLookupWarning: after the lookups']);
});

test('a failed lookup restores emitWarning and rethrows', async () => {
  const emit = process.emitWarning;
  await expect(withoutMetadataLookupWarning(() => Promise.reject(new Error('no credentials')))).rejects.toThrow('no credentials');
  expect(process.emitWarning).toBe(emit);
});
