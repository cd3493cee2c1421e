/**
 * A POSIX tar (ustar, with a PAX `path` record for a name over 100 bytes) written by hand, so that
 * the same entries always give the same bytes: a fixed mtime, uid/gid 0, no user or group names,
 * mode 0644 or 0755, entries in the order given. About as long as the code needed to pin the
 * `tar` package's options to the same effect, and with no dependency (POSIX.1-2001 `pax` format).
 */

export type TarEntry =
  { readonly type: 'directory'; readonly path: string } | { readonly type: 'file'; readonly path: string; readonly data: Buffer; readonly executable: boolean };

/** 1980-01-01T00:00:00Z: fixed, so that the archive does not change with the files' timestamps. */
export const tarMtime = 315_532_800;

const block = 512;

function octal(value: number, width: number): string {
  // width - 1 digits and a NUL, as ustar's numeric fields are.
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, typeflag: string, mode: number, size: number): Buffer {
  const buffer = Buffer.alloc(block);
  buffer.write(name, 0, 100, 'utf8'); // name: truncated only when a PAX record carries the whole
  buffer.write(octal(mode, 8), 100, 'ascii');
  buffer.write(octal(0, 8), 108, 'ascii'); // uid
  buffer.write(octal(0, 8), 116, 'ascii'); // gid
  buffer.write(octal(size, 12), 124, 'ascii');
  buffer.write(octal(tarMtime, 12), 136, 'ascii');
  buffer.write(' '.repeat(8), 148, 'ascii'); // the checksum counts its own field as spaces
  buffer.write(typeflag, 156, 'ascii');
  buffer.write('ustar\0', 257, 'ascii');
  buffer.write('00', 263, 'ascii');
  // uname and gname stay empty; devmajor and devminor are zero.
  buffer.write(octal(0, 8), 329, 'ascii');
  buffer.write(octal(0, 8), 337, 'ascii');
  let sum = 0;
  for (const byte of buffer) sum += byte;
  buffer.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return buffer;
}

function padding(size: number): Buffer {
  return Buffer.alloc((block - (size % block)) % block);
}

/** A PAX record `"<length> path=<value>\n"`, whose length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  const bodyBytes = Buffer.byteLength(body, 'utf8');
  let length = bodyBytes + String(bodyBytes).length;
  if (String(length).length + bodyBytes !== length) length = bodyBytes + String(length).length;
  return Buffer.from(`${length}${body}`, 'utf8');
}

function entryBlocks(name: string, typeflag: string, mode: number, data: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  if (Buffer.byteLength(name, 'utf8') > 100) {
    const record = paxRecord('path', name);
    blocks.push(header('PaxHeader', 'x', 0o644, record.length), record, padding(record.length));
  }
  blocks.push(header(name, typeflag, mode, data.length), data, padding(data.length));
  return blocks;
}

export function tarArchive(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    if (entry.type === 'directory') blocks.push(...entryBlocks(`${entry.path}/`, '5', 0o755, Buffer.alloc(0)));
    else blocks.push(...entryBlocks(entry.path, '0', entry.executable ? 0o755 : 0o644, entry.data));
  }
  blocks.push(Buffer.alloc(2 * block)); // two zero blocks end the archive
  return Buffer.concat(blocks);
}
