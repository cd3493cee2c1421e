/**
 * The part of AIP-160 list filters the engine's list methods take: comparisons joined by `AND`,
 * e.g. ADK's `user_id="u1"` on sessions and `timestamp>="2026-01-31T11:30:00Z"` on events. Field
 * names in either spelling (`user_id`, `userId`). A field the list does not filter on, or anything
 * beyond this subset (OR, NOT, parentheses), is 400 INVALID_ARGUMENT rather than ignored.
 */
import { invalidArgument } from '../google-api/service-error.js';
import { maxComparisons } from '../limits.js';
import { quotedName } from '../text/quoted-name.js';

export type Operator = '=' | '!=' | '<' | '<=' | '>' | '>=';

export interface Comparison {
  /** lowerCamel, with a map key kept after the dot: `labels.team`, `scope.user_id`. */
  readonly field: string;
  readonly operator: Operator;
  readonly value: string;
}

const clause = /^\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)?)\s*(!=|<=|>=|=|<|>)\s*("(?:[^"\\]|\\.)*"|[^\s"()]+)\s*$/;

const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** Splits on ` AND ` outside quoted strings. */
function clauses(filter: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < filter.length; i++) {
    const char = filter[i] as string;
    if (quoted && char === '\\') {
      current += char + (filter[i + 1] ?? '');
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (!quoted && /^\sAND\s/.test(filter.slice(i, i + 5))) {
      parts.push(current);
      current = '';
      i += 4;
      continue;
    }
    current += char;
  }
  if (quoted) throw invalidArgument('Invalid filter: a quoted value is not closed.');
  parts.push(current);
  return parts;
}

/**
 * The comparisons of `filter`; `fields` are the lowerCamel names allowed (a name ending in `.`
 * allows any map key after it).
 */
export function parseFilter(filter: string | undefined, fields: readonly string[]): Comparison[] {
  if (filter === undefined || filter.trim() === '') return [];
  const parts = clauses(filter);
  if (parts.length > maxComparisons) throw invalidArgument(`Invalid filter: at most ${maxComparisons} comparisons joined by AND, not ${parts.length}.`);
  return parts.map((text) => {
    const match = clause.exec(text);
    if (match === null) throw invalidArgument('Invalid filter: expected comparisons such as user_id="u1" joined by AND.');
    const [head, ...key] = (match[1] as string).split('.');
    const field = [camel(head as string), ...key].join('.');
    const allowed = fields.some((name) => (name.endsWith('.') ? field.startsWith(name) && field.length > name.length : field === name));
    if (!allowed) throw invalidArgument(`Invalid filter: this list cannot be filtered on ${quotedName(match[1] as string)}; supported: ${fields.join(', ')}.`);
    const raw = match[3] as string;
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    return { field, operator: match[2] as Operator, value };
  });
}

export function compare<T extends string | number>(actual: T, operator: Operator, expected: T): boolean {
  switch (operator) {
    case '=':
      return actual === expected;
    case '!=':
      return actual !== expected;
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
  }
}
