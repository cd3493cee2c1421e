/**
 * A name taken from a request (an unknown field, a mask path, a filter's field, a method a query
 * names) as an error quotes it: only when it is shaped like a field name and short. Anything else (a 5,000-character key,
 * one with control characters, a value sent where a name goes) is the caller's data, and is not
 * echoed back.
 */
export function quotedName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/.test(name) ? JSON.stringify(name) : '(not shown: not shaped like a field name)';
}

/** The same, unquoted, for a message that writes the name bare: `"classMethod" (echo) and ...`. */
export function shownName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/.test(name) ? name : 'not shown: not shaped like a field name';
}
