/**
 * What `agentgen deploy` says about the archive it packed: with `--dry-run`, every file it would
 * send and every file it kept out and why; on a real deploy, the secrets kept out and let through,
 * so that a CI log shows them. Every name passes printableText: a file name is the project's, and
 * a terminal obeys escapes in it. Never a file's contents.
 */

import { printableText } from '../../../terminal/printable-text.js';
import type { LeftOut, SourceArchive } from './source-archive.js';

function described(entry: LeftOut): string {
  return `  ${printableText(entry.path)}: ${entry.secret === undefined ? '' : `${entry.secret}, `}${entry.why}`;
}

function secretLines(source: SourceArchive): string[] {
  const refused = source.leftOut.filter((entry) => entry.secret !== undefined);
  const lines: string[] = [];
  if (refused.length > 0) {
    lines.push(`Refused as secrets, never sent (${refused.length}; --allow-secret PATH sends one that is not):`, ...refused.map(described));
  }
  if (source.allowedSecrets.length > 0) {
    lines.push(`Sent although they look like secrets, as --allow-secret asked (${source.allowedSecrets.length}):`, ...source.allowedSecrets.map(described));
  }
  return lines;
}

/** The dry run's account of the archive, after the request: what it holds, what it refused, what else it left out. */
export function dryRunSourceReport(source: SourceArchive): string {
  const lines = [
    `The archive holds ${source.files.length} files (${source.bytes} bytes, sha256 ${source.sha256}); the platform builds its Dockerfile:`,
    ...source.files.map((path) => `  ${printableText(path)}`),
    ...secretLines(source),
  ];
  const other = source.leftOut.filter((entry) => entry.secret === undefined);
  if (other.length > 0) lines.push(`Left out (${other.length}):`, ...other.map(described));
  return `${lines.join('\n')}\n`;
}

/** A real deploy's note on stderr about secrets, or '' when there were none. */
export function deploySecretsNote(source: SourceArchive): string {
  return secretLines(source)
    .map((line) => `agentgen deploy: ${line.trimStart()}\n`)
    .join('');
}
