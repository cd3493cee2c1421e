/** Where the generator's `templates/` folder is (`assets.ts` reads it; `write/output-record.ts` digests it). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root holds `templates/`; found by walking up, so it works from sources and from dist/. */
export function templatesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'templates', 'header.hbs');
    if (existsSync(candidate)) return join(dir, 'templates');
    const parent = dirname(dir);
    if (parent === dir) throw new Error('agentgen: cannot find its templates/ folder; the installation is incomplete');
    dir = parent;
  }
}
