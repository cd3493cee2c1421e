/**
 * What `agentgen dev` adds when it is given neither --container nor --command in a project whose
 * package.json has a `dev` script that runs it (what `npm create agentgen` writes): the script
 * knows the container's command, and the bare refusal left the user to find that out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** ` This project's \`npm run dev\` …` when `cwd`'s package.json has a `dev` script that runs agentgen dev; else ''. */
export function devScriptHint(cwd: string): string {
  let script: unknown;
  try {
    script = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> }).scripts?.['dev'];
  } catch {
    return ''; // no package.json here, or not JSON: nothing to point at
  }
  if (typeof script !== 'string' || !/\bagentgen\s+dev\b/.test(script)) return '';
  return ". This project's `npm run dev` runs agentgen dev with its container: use that (or copy its --command)";
}
