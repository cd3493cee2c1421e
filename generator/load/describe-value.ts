/**
 * A value as an error message names what was found instead of what was expected: its kind, and
 * a primitive's JSON text (`string "x"`, `number 3`, `an array`). Load and resolve both say it so;
 * `absent` is the word for no value at all (load's zod issues call it `undefined`, resolve's
 * value checks `nothing`).
 */
export function describeValue(value: unknown, absent = 'nothing'): string {
  if (value === undefined) return absent;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}
