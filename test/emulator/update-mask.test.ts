/**
 * google-api/update-mask.ts, the one reading of an update's `updateMask` that the engine services
 * (UpdateSession, UpdateMemory) and the control plane (UpdateReasoningEngine) share, with the rule
 * each passes: the paths a mask names, `*`, an empty mask, and what an update without one changes.
 * The services' answers over HTTP are tested in test/engine-services/ and control-plane.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../emulator/google-api/service-error.js';
import { flatPath, type MaskRule, maskPaths, updateMaskOf } from '../../emulator/google-api/update-mask.js';

const updatable = ['displayName', 'labels', 'sessionState'];
const flat = (maskless: readonly string[]): MaskRule => ({
  path: (path) => flatPath(path, updatable, 'session'),
  maskless: () => maskless,
  everything: updatable,
});
const query = (text: string) => new URLSearchParams(text);

describe('updateMaskOf', () => {
  it.each([
    ['updateMask=a,b', 'a,b'],
    ['update_mask=a', 'a'],
    ['updateMask=', undefined],
    ['updateMask=%20%20', undefined],
    ['', undefined],
  ])('reads %j as %j (an empty FieldMask is no mask)', (text, mask) => expect(updateMaskOf(query(text))).toBe(mask));
});

describe('maskPaths', () => {
  it('takes either spelling of each path, trimmed, in lowerCamel', () => {
    expect(maskPaths(query('updateMask=display_name, labels'), flat([]))).toEqual(['displayName', 'labels']);
  });

  it('without a mask, or with an empty one, changes what the method says (maskless)', () => {
    expect(maskPaths(query(''), flat(updatable))).toEqual(updatable);
    expect(maskPaths(query('update_mask='), flat(['labels']))).toEqual(['labels']);
  });

  it('reads `*` as every updatable field where the method takes it, and as a path where it does not', () => {
    expect(maskPaths(query('updateMask=*'), flat([]))).toEqual(updatable);
    const strict: MaskRule = { path: (path) => flatPath(path, updatable, 'engine'), maskless: () => [] };
    expect(() => maskPaths(query('updateMask=*'), strict)).toThrow(ServiceError);
  });

  it('refuses a path the method does not update, quoting it only when it is shaped like a name', () => {
    expect(() => maskPaths(query('updateMask=displayName,userId'), flat([]))).toThrow(
      `Invalid update_mask path "userId" for 'session': the paths it may name are displayName, labels, sessionState.`,
    );
    expect(() => maskPaths(query(`updateMask=${encodeURIComponent('\u001b[2J')}`), flat([]))).toThrow(
      /^Invalid update_mask path \(not shown: not shaped like a field name\) for 'session'/,
    );
    expect(() => maskPaths(query('updateMask=displayName,,labels'), flat([]))).toThrow(/Invalid update_mask path/);
  });
});
