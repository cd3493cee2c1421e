/**
 * The size limit of `class-methods.json`. The manifest goes into the deploy request (and into
 * `agentgen dev`'s resource), and it is the one output that writes schemas out where they are used:
 * each use of a spec schema is bounded (`inlineSchemaLimit`), but many uses of large ones are not.
 * Measured, not written: a spec past the limit is refused at the operation whose entry crosses it.
 */

import type { SpecProblem } from '../load/spec-error.js';
import type { Model } from '../model.js';
import { jsonLengths } from './json-length.js';
import { buildManifest } from './manifest.js';

/**
 * The longest `class-methods.json` agentgen writes, in characters of JSON text (16 MiB): some six
 * times what a 5,000-operation spec with a schema in every operation's arguments writes.
 */
export const manifestLimit = 16 * 1024 * 1024;

export function checkManifestSize(model: Model, problems: SpecProblem[]): void {
  const length = jsonLengths();
  const entries = buildManifest(model);
  // `[`, the break before `]`, `]` and the last newline; each entry after a break and two spaces, a comma between two.
  let written = 4;
  for (const [index, entry] of entries.entries()) {
    written += 3 + length(entry, 1) + (index > 0 ? 1 : 0);
    if (written > manifestLimit) {
      problems.push({
        path: ['operations', entry.name],
        atKey: true,
        message:
          `its entry takes class-methods.json past the limit of ${manifestLimit / 1024 / 1024} MiB (${written} characters so far): the manifest writes out the spec schemas ` +
          'an operation takes at every use; give fewer arguments schemas that large, or shorter descriptions',
      });
      return;
    }
  }
}
