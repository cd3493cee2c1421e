// Puts the generator's templates into the @agentgen/cli package folder while `npm pack` runs
// (`copy` on prepack, `remove` on postpack): a package holds only files under its own folder.
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../templates/', import.meta.url));
const target = fileURLToPath(new URL('../cli/templates/', import.meta.url));
const action = process.argv[2];
if (action === 'copy') cpSync(source, target, { recursive: true });
else if (action === 'remove') rmSync(target, { recursive: true, force: true });
else throw new Error(`usage: stage-cli-templates.mjs copy|remove (got ${JSON.stringify(action)})`);
