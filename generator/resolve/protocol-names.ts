/**
 * Names JavaScript itself looks up on an object. A generated object (the client, a handler map,
 * a validated input) that owns one of them changes what the language does with it: an own `then`
 * makes `await client` never settle, an own `toJSON` rewrites `JSON.stringify`, an own `valueOf`
 * or `toString` changes comparisons and string building, and every `Object.prototype` member is
 * already there on a plain object, so a lookup by that name finds the prototype's. No spec may use
 * them as an operation, property or schema name.
 */
export const protocolNames: ReadonlySet<string> = new Set([
  '__proto__',
  ...Object.getOwnPropertyNames(Object.prototype),
  'then', // the thenable protocol: await, Promise.resolve
  'toJSON', // JSON.stringify
]);

/** Why `name` cannot be used, or undefined when it can. */
export function protocolNameProblem(name: string): string | undefined {
  if (!protocolNames.has(name)) return undefined;
  const why =
    name === 'then'
      ? 'JavaScript treats an object with a "then" as a promise'
      : name === 'toJSON'
        ? 'JSON.stringify calls an object\'s "toJSON"'
        : 'every JavaScript object has it';
  return `${JSON.stringify(name)} cannot be used as a name: ${why}; choose another`;
}
