/**
 * The length of `JSON.stringify(value, null, 2)` (or of the value written at a depth inside
 * another), found without writing it. The manifest writes one
 * named schema's form at every use, as one shared object: each distinct object is measured once,
 * so a value that would be gigabytes of text is measured in time linear in its distinct parts (and
 * a spec is refused for it before anything is written).
 */

/** A value written at depth `d` is `flat + 2 * breaks * d` long: each of its line breaks is followed by two spaces per level. */
interface Measure {
  readonly flat: number;
  readonly breaks: number;
}

/**
 * A measure with its own memory of what it has measured: keep it only while the values it is
 * given stay unchanged (the manifest's are built once and never changed).
 */
export function jsonLengths(): (value: unknown, depth?: number) => number {
  const measured = new WeakMap<object, Measure>();
  // Long strings recur (a description copied to every use of its schema): their escaped length is kept.
  const stringLengths = new Map<string, number>();
  const scalarLength = (value: unknown): number => {
    if (value === undefined) return 4; // written `null` in an array
    if (typeof value !== 'string' || value.length < 64) return JSON.stringify(value).length;
    let length = stringLengths.get(value);
    if (length === undefined) {
      length = JSON.stringify(value).length;
      stringLengths.set(value, length);
    }
    return length;
  };
  const measure = (value: unknown): Measure => {
    if (value === null || typeof value !== 'object') return { flat: scalarLength(value), breaks: 0 };
    const known = measured.get(value);
    if (known !== undefined) return known;
    const members: [key: string | undefined, value: unknown][] = Array.isArray(value)
      ? value.map((item) => [undefined, item])
      : Object.entries(value).filter(([, item]) => item !== undefined);
    let flat = 2; // the brackets
    let breaks = 0;
    if (members.length > 0) {
      // `[\n  a,\n  b\n]`: a break before each member and before the closing bracket, a comma between members.
      flat += 2 * members.length;
      breaks += members.length + 1;
      for (const [key, item] of members) {
        const inner = measure(item);
        // One level deeper than its container: two spaces before it, and two more after each of its breaks.
        flat += 2 + inner.flat + 2 * inner.breaks + (key === undefined ? 0 : scalarLength(key) + 2);
        breaks += inner.breaks;
      }
    }
    const result = { flat, breaks };
    measured.set(value, result);
    return result;
  };
  return (value, depth = 0) => {
    const { flat, breaks } = measure(value);
    return flat + 2 * breaks * depth;
  };
}
