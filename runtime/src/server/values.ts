/** Small checks on values a handler or a caller hands over; none of them throws. */

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Caller-supplied text quoted in a message is cut at 100 characters. */
export function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

export function isIterable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Iterable<unknown> & AsyncIterable<unknown>>;
  return typeof candidate[Symbol.asyncIterator] === 'function' || typeof candidate[Symbol.iterator] === 'function';
}

export type Closable = { return?: (value?: unknown) => unknown };

export function iteratorOf(value: unknown): Closable | undefined {
  if (!isIterable(value)) return undefined;
  const candidate = value as Partial<Iterable<unknown> & AsyncIterable<unknown>>;
  const factory = (candidate[Symbol.asyncIterator] ?? candidate[Symbol.iterator]) as (this: unknown) => unknown;
  try {
    return factory.call(value) as Closable;
  } catch {
    return undefined;
  }
}

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
