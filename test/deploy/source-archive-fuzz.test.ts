/**
 * The source packer against hostile trees (issue 44, items 1 and 7): random projects, a fixed seed
 * and a bounded count, each planting secrets of every class (by name, in a credential folder, by
 * content at a random place in random bytes, as a backup copy) among files with hostile names
 * (control characters, terminal escapes, bidirectional overrides, backslashes, long names, bytes
 * that are not UTF-8), symbolic links, and an ignore file of random and hostile lines, `!`
 * re-including the secrets among them. Whatever the tree: no crash (the packer returns or refuses
 * with a SourceArchiveError), no byte of any secret in the archive, and no raw control character
 * nor any secret in what it says. Real files in a temporary folder, the real packer.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { packSource, SourceArchiveError } from '../../cli/src/deploy/source-archive.js';
import { printableText } from '../../terminal/printable-text.js';

const root = mkdtempSync(join(tmpdir(), 'agentgen-source-fuzz-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What a secret file holds around its marker: every way the packer knows one by content. */
const secretContents: readonly ((marker: string) => string)[] = [
  (m) => `-----BEGIN RSA PRIVATE KEY-----\n${m}\n-----END RSA PRIVATE KEY-----\n`,
  (m) => `-----BEGIN OPENSSH PRIVATE KEY-----\r\n${m}\r\n`,
  (m) => `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${m}\n`,
  (m) => `-----BEGIN ENCRYPTED PRIVATE KEY-----${m}`,
  (m) => `PuTTY-User-Key-File-2: ssh-rsa\n${m}`,
  (m) => JSON.stringify({ type: 'service_account', private_key: m, client_email: 'a@b' }),
  (m) => `{\n  "refresh_token": "${m}",\n  "type" :  "authorized_user"\n}`,
  (m) => JSON.stringify({ type: 'external_account', token_url: m }),
  (m) => `[default]\naws_secret_access_key=${m}\n`,
];

/** Paths refused by name or folder, whatever they hold. */
const secretPaths = [
  '.env',
  '.env.local',
  'prod.env',
  '.env~',
  '#.env#',
  '.env.swp',
  'id_rsa',
  'id_ecdsa',
  'keys/id_ed25519_sk',
  'id_rsa.bak',
  '.id_dsa.swp',
  'server.key',
  'tls/cert.p12',
  '.git-credentials',
  '.git-credentials.orig',
  '.netrc',
  '.pypirc',
  '.pgpass',
  '.vault-token',
  '.docker/config.json',
  '.kube/config',
  '.kube/config.old',
  '.ssh/anything',
  '.gnupg/private-keys-v1.d/x.key',
  '.aws/credentials',
  'home/.config/gcloud/configurations/config_default',
  'credentials.db',
  'access_tokens.db',
  'application_default_credentials.json',
  'terraform.tfvars',
  'infra/x.tfstate',
  'infra/x.tfstate.1700000000.backup',
  'my-credentials.json',
];

/** Characters a file name can hold that a terminal or a parser may trip on. */
const hostileChars = [
  '\u001b[2J',
  '\u001b]0;x\u0007',
  '\r',
  '\n',
  '\t',
  '\u0000'.slice(1),
  '\u007f',
  '\u0085',
  '\u202e',
  '\u2066',
  '\u2028',
  '\\',
  ' ',
  '*',
  '?',
  '[',
  '!',
  '#',
  '~',
  'é',
  '😀',
  '..',
  '.',
];
const nameArb = fc
  .array(fc.oneof(fc.constantFrom(...hostileChars), fc.string({ minLength: 1, maxLength: 12 })), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join('').replace(/[/\u0000]/g, '_'))
  .filter((name) => name !== '.' && name !== '..' && name !== '' && Buffer.byteLength(name) <= 200);
const folderArb = fc.oneof(
  fc.constant(''),
  fc.constantFrom('src/', 'a/b/', '.ssh/', 'docs/'),
  nameArb.map((name) => `${name}/`),
);

type Planted =
  | { kind: 'secret-content'; path: string; template: number; before: Uint8Array; after: Uint8Array }
  | { kind: 'secret-path'; path: string }
  | { kind: 'plain'; path: string; text: string }
  | { kind: 'maybe-secret'; path: string }
  | { kind: 'link'; path: string; target: string }
  | { kind: 'not-utf8'; folder: string; bytes: Uint8Array };

const plantedArb: fc.Arbitrary<Planted> = fc.oneof(
  fc.record({
    kind: fc.constant('secret-content' as const),
    path: fc.tuple(folderArb, nameArb).map(([folder, name]) => `${folder}${name}`),
    template: fc.nat(secretContents.length - 1),
    before: fc.uint8Array({ maxLength: 300 }),
    after: fc.uint8Array({ maxLength: 300 }),
  }),
  fc.record({ kind: fc.constant('secret-path' as const), path: fc.constantFrom(...secretPaths) }),
  // A secret's name with a hostile middle and a backup's decoration: whether it is refused depends on the middle; what is said about it must be escaped either way.
  fc.record({
    kind: fc.constant('maybe-secret' as const),
    path: fc
      .tuple(fc.constantFrom('id_', '.env.', '#.env', '.pgpass', 'x.tfvars'), nameArb, fc.constantFrom('.bak', '~', '#', '.swp', '.~3~', ''))
      .map((parts) => parts.join('')),
  }),
  fc.record({ kind: fc.constant('plain' as const), path: fc.tuple(folderArb, nameArb).map(([folder, name]) => `${folder}${name}`), text: fc.string() }),
  fc.record({ kind: fc.constant('link' as const), path: nameArb, target: fc.constantFrom('.env', 'id_rsa', '../outside', '/etc/passwd', 'src') }),
  fc.record({ kind: fc.constant('not-utf8' as const), folder: fc.constantFrom('', 'src/'), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
);

const ignoreLineArb = fc.oneof(
  fc.constantFrom(
    '*',
    '**',
    '!**',
    '!*',
    '!.env',
    '!.ssh',
    '!.ssh/**',
    '!id_rsa',
    '!*.key',
    '!.aws/',
    'src/',
    '#!include:missing',
    '[',
    '\\',
    `${'*?'.repeat(20)}b`,
  ),
  fc.constantFrom(...secretPaths).map((path) => `!${path}`),
  fc.string({ maxLength: 20 }),
);
const ignoreArb = fc.option(fc.tuple(fc.constantFrom('.dockerignore', '.gcloudignore'), fc.array(ignoreLineArb, { maxLength: 8 })), { nil: undefined });

/** Any control character but the newlines a long message is laid out with; the bidirectional overrides too. */
const rawControl = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

let runs = 0;
function plant(tree: Planted[], ignoreFile: [string, string[]] | undefined): { dir: string; markers: string[] } {
  const dir = join(root, `t${++runs}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'Dockerfile'), 'FROM scratch\nCOPY . .\n');
  if (ignoreFile !== undefined) writeFileSync(join(dir, ignoreFile[0]), ignoreFile[1].join('\n'));
  const markers: string[] = [];
  const write = (path: string, data: string | Buffer): boolean => {
    try {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), data);
      return true;
    } catch {
      return false; // the random tree put a file where a folder is, or the reverse: that entry is not planted
    }
  };
  tree.forEach((entry, i) => {
    const marker = `SECRETMARKER${runs}x${i}Q`;
    switch (entry.kind) {
      case 'secret-content': {
        const data = Buffer.concat([Buffer.from(entry.before), Buffer.from(secretContents[entry.template]!(marker)), Buffer.from(entry.after)]);
        if (write(entry.path, data)) markers.push(marker);
        break;
      }
      case 'secret-path':
        if (write(entry.path, marker)) markers.push(marker);
        break;
      case 'plain':
        write(entry.path, entry.text);
        break;
      case 'maybe-secret':
        write(entry.path, 'not a secret by content');
        break;
      case 'link':
        try {
          symlinkSync(entry.target, join(dir, entry.path));
        } catch {
          // a name already taken
        }
        break;
      case 'not-utf8':
        try {
          mkdirSync(join(dir, entry.folder), { recursive: true });
          writeFileSync(
            Buffer.concat([Buffer.from(join(dir, entry.folder, '/')), Buffer.from([0xff]), Buffer.from(entry.bytes.filter((b) => b !== 0x2f && b !== 0))]),
            'x',
          );
        } catch {
          // a name the file system refuses
        }
        break;
    }
  });
  return { dir, markers };
}

describe('hostile trees, seed 44', () => {
  test('no crash, no secret packed, nothing raw or secret said', async () => {
    let packed = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(plantedArb, { minLength: 1, maxLength: 16 }), ignoreArb, async (tree, ignoreFile) => {
        const { dir, markers } = plant(tree, ignoreFile);
        let said: string;
        try {
          const source = await packSource(dir);
          packed++;
          const tar = gunzipSync(source.archive).toString('latin1');
          for (const marker of markers) expect(tar.includes(marker), `${marker} was packed`).toBe(false);
          said = [...source.files.map(printableText), ...source.leftOut.map((entry) => `${printableText(entry.path)}: ${entry.why}`)].join('\n');
        } catch (error) {
          // A refusal (a link out of the project, a bad pattern, a name that is not UTF-8) is an answer; anything else is a crash.
          if (!(error instanceof SourceArchiveError)) throw error;
          refused++;
          said = error.message;
        }
        expect(said).not.toMatch(rawControl);
        for (const marker of markers) expect(said).not.toContain(marker);
      }),
      { seed: 44, numRuns: 120 },
    );
    // The trees exercise both outcomes, not only refusals.
    expect(packed).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(5);
  }, 120_000);
});
