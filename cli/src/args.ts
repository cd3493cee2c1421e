/**
 * The common forms of a plain verb's options, parsed without yargs (whose loading costs about a
 * fifth of `generate`'s run): `--name value` and `--name=value` for declared string options (one of
 * the `choices`, when there are some), `--name` for declared switches, each at most once but a
 * repeatable option (`array`), whose values come as a list, as yargs gives them. Anything
 * else (help, an unknown or repeated option, `--no-x`, a value that starts with `-`, ...) gives
 * undefined, and yargs parses the whole command line and reports any error. A test keeps the two
 * parsers in agreement.
 */
import type { OptionSpec, ParsedArgs } from './verb.js';

export function parseCommonForms(options: Readonly<Record<string, OptionSpec>>, argv: readonly string[]): ParsedArgs | undefined {
  const declared = new Map(Object.entries(options));
  const args = new Map<string, string | string[] | boolean>();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith('--')) return undefined;
    const equals = token.indexOf('=');
    const name = equals < 0 ? token.slice(2) : token.slice(2, equals);
    const spec = declared.get(name);
    if (spec === undefined || (args.has(name) && !('array' in spec))) return undefined;
    if (spec.type === 'boolean') {
      if (equals >= 0) return undefined;
      args.set(name, true);
      continue;
    }
    const value = equals < 0 ? argv[++i] : token.slice(equals + 1);
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    if ('array' in spec) {
      args.set(name, [...((args.get(name) as string[] | undefined) ?? []), value]);
      continue;
    }
    if (spec.choices !== undefined && !spec.choices.includes(value)) return undefined;
    args.set(name, value);
  }
  return Object.fromEntries([...declared].map(([name, spec]) => [name, args.get(name) ?? ('default' in spec ? spec.default : undefined)]));
}
