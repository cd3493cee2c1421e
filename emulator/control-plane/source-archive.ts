/**
 * `spec.sourceCodeSpec.inlineSource.sourceArchive`, read as far as dev can check it: base64 of a
 * gzip'd tar (what adk-go's `tar -czf` and the Python SDK send) holding the project's `Dockerfile`
 * at its root, which the platform builds (`imageSpec`). Dev does not build it: the revision runs
 * what `--command` or `--container` gives. Bounded, since the archive is the caller's: at most
 * `maxDecodedBytes` unpacked and `maxEntries` entries, the limits `agentgen deploy` packs within
 * (contract/source-archive-limits.ts), so that what deploy packs dev accepts.
 */
import { gunzipSync } from 'node:zlib';
import { sourceArchiveLimits } from '../../contract/source-archive-limits.js';
import { invalidArgument } from '../google-api/service-error.js';

export const maxDecodedBytes = sourceArchiveLimits.unpackedBytes;
export const maxEntries = sourceArchiveLimits.entries;

export interface ArchiveSummary {
  /** Regular files in the archive. */
  readonly files: number;
  /** The archive's own size, compressed. */
  readonly bytes: number;
}

const where = 'spec.source_code_spec.inline_source.source_archive';

/** A tar header's NUL-terminated text field. */
function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** A tar header's size: octal text, or GNU base-256 for large files. */
function size(block: Buffer): number {
  const field = block.subarray(124, 136);
  if (((field[0] ?? 0) & 0x80) !== 0) {
    let value = 0;
    for (let i = 1; i < field.length; i++) value = value * 256 + (field[i] ?? 0);
    return value;
  }
  const octal = text(block, 124, 12).trim();
  return octal === '' ? 0 : parseInt(octal, 8);
}

/** `path=` of a PAX extended header, if it has one. */
function paxPath(data: Buffer): string | undefined {
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) return undefined;
    const length = Number(data.subarray(offset, space).toString('ascii'));
    if (!Number.isSafeInteger(length) || length <= 0) return undefined;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    if (record.startsWith('path=')) return record.slice(5);
    offset += length;
  }
  return undefined;
}

/** Checks the archive; its summary for the log line, or INVALID_ARGUMENT saying what is wrong. */
export function checkSourceArchive(base64: unknown): ArchiveSummary {
  if (typeof base64 !== 'string' || base64 === '') throw invalidArgument(`'${where}' is required: base64 of a .tar.gz of the project.`);
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64)) throw invalidArgument(`Invalid value at '${where}' (TYPE_BYTES): not base64.`);
  const archive = Buffer.from(base64, base64.includes('-') || base64.includes('_') ? 'base64url' : 'base64');
  let tar: Buffer;
  try {
    tar = gunzipSync(archive, { maxOutputLength: maxDecodedBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || /Cannot create a Buffer larger/.test((error as Error).message)) {
      throw invalidArgument(`'${where}' unpacks to more than ${maxDecodedBytes} bytes, agentgen dev's limit.`);
    }
    throw invalidArgument(`'${where}' is not gzip data: send a .tar.gz of the project.`);
  }
  let files = 0;
  let entries = 0;
  let dockerfile = false;
  let pending: string | undefined; // a long name from a PAX or GNU header, for the next entry
  for (let offset = 0; offset + 512 <= tar.length;) {
    const block = tar.subarray(offset, offset + 512);
    if (block.every((byte) => byte === 0)) break; // the end-of-archive blocks
    const magic = text(block, 257, 6);
    if (magic !== 'ustar' && magic !== 'ustar ') throw invalidArgument(`'${where}' is not a tar archive inside the gzip (no ustar header at byte ${offset}).`);
    const length = size(block);
    const type = String.fromCharCode(block[156] ?? 0);
    // A long name's record (PAX 'x' and 'g', GNU 'L') describes the next entry; it is not one itself.
    if (type !== 'x' && type !== 'g' && type !== 'L' && ++entries > maxEntries) {
      throw invalidArgument(`'${where}' holds more than ${maxEntries} entries, agentgen dev's limit.`);
    }
    const data = tar.subarray(offset + 512, offset + 512 + length);
    if (data.length < length) throw invalidArgument(`'${where}' is truncated: an entry runs past the end of the tar.`);
    offset += 512 + Math.ceil(length / 512) * 512;
    if (type === 'x') pending = paxPath(data) ?? pending;
    else if (type === 'L') pending = text(data, 0, data.length);
    else if (type === 'g') continue;
    else {
      const prefix = text(block, 345, 155);
      const name = pending ?? (prefix === '' ? text(block, 0, 100) : `${prefix}/${text(block, 0, 100)}`);
      pending = undefined;
      if (type === '0' || type === '\0' || type === '7') {
        files++;
        if (name.replace(/^(\.\/)+/, '') === 'Dockerfile') dockerfile = true;
      }
    }
  }
  if (entries === 0) throw invalidArgument(`'${where}' is an empty tar archive.`);
  if (!dockerfile) throw invalidArgument(`'${where}' has no Dockerfile at its root: the platform builds the project's Dockerfile (imageSpec).`);
  return { files, bytes: archive.length };
}
