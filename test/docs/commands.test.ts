/**
 * docs/commands.md is what scripts/docs-commands.mjs writes from the CLI's own verb table and
 * option definitions (rendered here from the sources), so a new verb or option, or a changed
 * description, cannot leave the page behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { registerPlain, verbs } from '../../cli/src/main.js';
import { renderCommandsDoc } from '../../scripts/docs-commands.mjs';
import { root } from './markdown.js';

test('docs/commands.md is what `npm run docs:commands` writes from the CLI (run it after changing a verb or an option)', async () => {
  const page = await renderCommandsDoc(verbs, registerPlain);
  expect(readFileSync(join(root, 'docs/commands.md'), 'utf8')).toBe(page);
});

test('the page names every verb and every option the CLI defines', async () => {
  const page = await renderCommandsDoc(verbs, registerPlain);
  for (const name of verbs.keys()) expect(page).toContain(`## \`agentgen ${name}\``);
  // Options of each kind of verb: a plain one (generate), one with its own register (dev), one
  // with a positional (init) and a default that is on (init's install).
  for (const option of ['`--standard-surface`', '`--replicas`', '`--grpc-port`', '`--console`', '`--no-install`', '`dir`', '`--allowed-host`'])
    expect(page).toContain(option);
  expect(page).toContain('`--container` and `--command` exclude each other.');
});
