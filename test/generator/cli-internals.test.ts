/** What the CLI's fast path stands on: the parser of the common option forms agrees with yargs. */
import { describe, expect, test } from 'vitest';
import yargs from 'yargs';
import { parseCommonForms } from '../../cli/src/args.js';
import { deployVerb } from '../../cli/src/deploy-command.js';
import { checkVerb, generateVerb } from '../../cli/src/generate-command.js';
import { initVerb } from '../../cli/src/init-command.js';
import { registerPlain } from '../../cli/src/main.js';
import { manifestVerb } from '../../cli/src/manifest-command.js';
import type { ParsedArgs, PlainVerb, Runner } from '../../cli/src/verb.js';

const plainVerbs: [string, PlainVerb][] = [
  ['generate', generateVerb],
  ['check', checkVerb],
  ['manifest', manifestVerb],
  ['init', initVerb],
  ['deploy', deployVerb],
];

/** What yargs gives the verb's action for `argv`, or the usage error it throws. */
async function viaYargs(name: string, verb: PlainVerb, argv: string[]): Promise<ParsedArgs | Error> {
  let captured: ParsedArgs | undefined;
  const run: Runner = () => async (args) => {
    captured = args as ParsedArgs;
  };
  try {
    await registerPlain(name, verb)(yargs(), run, 'd')
      .strict()
      .exitProcess(false)
      .fail((message, error) => {
        throw error ?? new Error(message);
      })
      .parseAsync([name, ...argv]);
  } catch (error) {
    return error as Error;
  }
  return Object.fromEntries(Object.keys(verb.options).map((key) => [key, captured![key]]));
}

describe('the common forms of plain verbs parse as yargs parses them', () => {
  const accepted: [string, string[]][] = [
    ['generate', []],
    ['generate', ['--out', 'x']],
    ['generate', ['--out=x', '--spec', 'a b.yaml']],
    ['generate', ['--spec=a=b.yaml', '--runtime', 'bundle', '--watch']],
    ['generate', ['--watch', '--out', '123']],
    ['generate', ['--runtime=package']],
    ['check', ['--out', 'dir/sub', '--spec', './s.json', '--runtime', 'bundle']],
    ['manifest', ['--spec', 'agentgen.yaml']],
    ['init', ['--force', '--name', 'my-agent']],
    ['init', ['--name=x']],
    ['deploy', ['--dry-run']],
    // A repeatable option: a list, one value or several.
    ['deploy', ['--allow-secret', '.env']],
    ['deploy', ['--allow-secret', 'a b', '--dry-run', '--allow-secret=notes.txt']],
  ];
  test.each(accepted)('%s %j', async (name, argv) => {
    const verb = plainVerbs.find(([n]) => n === name)![1];
    const fast = parseCommonForms(verb.options, argv);
    expect(fast).toBeDefined();
    expect(fast).toEqual(await viaYargs(name, verb, argv));
  });

  // Forms left to yargs (which parses or rejects them): the fast parser must not guess.
  const left: [string, string[]][] = [
    ['generate', ['--help']],
    ['generate', ['-h']],
    ['generate', ['--nope']],
    ['generate', ['extra']],
    ['generate', ['--out']],
    ['generate', ['--out', '--watch']],
    ['generate', ['--out=']],
    ['generate', ['--out', 'a', '--out', 'b']],
    ['generate', ['--no-watch']],
    ['generate', ['--watch=false']],
    ['generate', ['--runtime', 'nope']],
    ['generate', ['--', '--out', 'x']],
    ['generate', ['--Out', 'x']],
    ['check', ['--watch']],
    ['manifest', ['--out', 'x']],
    ['init', ['--__proto__', 'x']],
    ['deploy', ['--allow-secret']],
    ['deploy', ['--allow-secret', '.env', 'notes.txt']],
  ];
  test.each(left)('%s %j is left to yargs', (name, argv) => {
    const verb = plainVerbs.find(([n]) => n === name)![1];
    expect(parseCommonForms(verb.options, argv)).toBeUndefined();
  });
});
