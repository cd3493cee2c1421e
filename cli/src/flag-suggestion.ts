/**
 * "Did you mean --spec?" for a mistyped option, as a mistyped verb gets one. yargs (strict) refuses
 * an unknown option without a suggestion, and the options of a verb that registers itself are known
 * only to yargs, once the verb's builder has run: a middleware that runs before yargs validates
 * records them. Every unknown option reaches yargs (`args.ts` leaves what it does not know to it),
 * so this one place suggests for every verb.
 */
import { nearestName } from '../../generator/index.js';

/** The options yargs knows for the verb being parsed, recorded before it validates the command line. */
export class DeclaredOptions {
  #names: readonly string[] = [];

  /** For `parser.middleware(…, true)`: yargs passes its instance as the second argument. */
  readonly record = (_args: unknown, instance?: unknown): void => {
    const options = hasGetOptions(instance) ? instance.getOptions() : undefined;
    const keys = options !== null && typeof options === 'object' && 'key' in options ? options.key : undefined;
    if (keys !== null && typeof keys === 'object') this.#names = Object.keys(keys);
  };

  get names(): readonly string[] {
    return this.#names;
  }
}

function hasGetOptions(value: unknown): value is { getOptions(): unknown } {
  return value !== null && typeof value === 'object' && 'getOptions' in value && typeof value.getOptions === 'function';
}

/**
 * `; did you mean --spec?` for the `--options` of `argv` that are not declared and are close to one
 * that is; '' when none is. yargs also takes `--no-name` for a switch and `--camelCase` for
 * `--kebab-case`: those are known.
 */
export function flagSuggestion(argv: readonly string[], declared: readonly string[]): string {
  const names = declared.filter((name) => name.length > 1); // one-letter aliases are never what a long name meant
  const known = new Set(names);
  const suggestions: [typed: string, meant: string][] = [];
  for (const token of argv) {
    if (token === '--') break;
    if (!token.startsWith('--') || token.length === 2) continue;
    const typed = token.slice(2).split('=', 1)[0]!;
    const kebab = typed.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    if (known.has(typed) || known.has(kebab) || (typed.startsWith('no-') && known.has(typed.slice(3)))) continue;
    const meant = nearestName(typed, names);
    if (meant !== undefined && !suggestions.some(([t]) => t === typed)) suggestions.push([typed, meant]);
  }
  if (suggestions.length === 0) return '';
  if (suggestions.length === 1) return `; did you mean --${suggestions[0]![1]}?`;
  return `; did you mean ${suggestions.map(([typed, meant]) => `--${meant} for --${typed}`).join(', ')}?`;
}
