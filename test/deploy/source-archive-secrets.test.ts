/**
 * A source archive never carries a credential (issue 44, item 1): a project planted with each class
 * of credential, under the names tools give them and under names no list holds (a PEM key saved as
 * `notes.txt`, a service-account key as the console downloads it, `my-project-1a2b3c.json`), packs
 * none of them: not by path, and not one byte of any (the unpacked tar is searched for each file's
 * own marker). Look-alikes are packed; `allowSecrets` lets exactly the named file through. Real
 * files in a temporary folder, the real packer.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packSource, type SourceArchive, SourceArchiveError } from '../../cli/src/deploy/source-archive.js';
import { type TarEntry, tarArchive } from '../../cli/src/deploy/source-archive-tar.js';
import { sourceArchiveLimits } from '../../contract/source-archive-limits.js';
import { checkSourceArchive } from '../../emulator/control-plane/source-archive.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'agentgen-source-secrets-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
function project(files: Record<string, string | Buffer>): string {
  const dir = join(root, `p${++count}`);
  for (const [path, contents] of Object.entries({ Dockerfile: 'FROM scratch\nCOPY . .\n', ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), contents);
  }
  return dir;
}

/** A marker unique to each planted secret: if any of its bytes were packed, the marker would be in the tar. */
const marker = (path: string) => `MARKER-${Buffer.from(path).toString('hex')}-END`;

const pem = (kind: string, body: string) => `-----BEGIN ${kind}-----\n${body}\n-----END ${kind}-----\n`;
const serviceAccount = (body: string) =>
  JSON.stringify(
    { type: 'service_account', project_id: 'my-project', private_key_id: '1a2b3c', private_key: pem('PRIVATE KEY', body), client_email: 'x@y.iam' },
    null,
    2,
  );

/** Each class of credential, by its usual name or by what it holds under a name no list holds. */
const planted: Record<string, (mark: string) => string> = {
  // Private keys, by what they hold, whatever their name.
  'notes.txt': (m) => `my key, keep safe\n${pem('RSA PRIVATE KEY', m)}`,
  'docs/setup.md': (m) => `# Setup\n\n\`\`\`\n${pem('OPENSSH PRIVATE KEY', m)}\`\`\`\n`,
  'src/fixtures/ec.txt': (m) => pem('EC PRIVATE KEY', m),
  'misc/encrypted': (m) => pem('ENCRYPTED PRIVATE KEY', m),
  'misc/release-signing.txt': (m) => pem('PGP PRIVATE KEY BLOCK', m),
  'misc/putty-key.txt': (m) => `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n${m}\n`,
  'src/config.ts': (m) => `export const key = "-----BEGIN PRIVATE KEY-----\\n${m}\\n-----END PRIVATE KEY-----\\n";\n`,
  // Private keys by name: ssh-keygen's, whatever their contents.
  id_ecdsa: (m) => m,
  id_dsa: (m) => m,
  'keys/id_ed25519': (m) => m,
  id_rsa_work: (m) => m,
  'tls/server.pem': (m) => m,
  // Google's credentials, by their fields.
  'my-project-1a2b3c.json': (m) => serviceAccount(m),
  'service_account.json': (m) => serviceAccount(m),
  'config/prod.json': (m) => JSON.stringify({ type: 'authorized_user', client_id: 'c', client_secret: 's', refresh_token: m }),
  'config/wif.json': (m) => JSON.stringify({ type: 'external_account', audience: '//iam', subject_token_type: m }),
  // Credential files and the folders that hold them.
  '.git-credentials': (m) => `https://user:${m}@github.com\n`,
  '.aws/credentials': (m) => `[default]\naws_access_key_id = AKIA\naws_secret_access_key = ${m}\n`,
  '.aws/config': (m) => `[default]\nregion = ${m}\n`,
  'backup/aws-creds.ini': (m) => `[default]\naws_secret_access_key = ${m}\n`,
  '.docker/config.json': (m) => JSON.stringify({ auths: { 'ghcr.io': { auth: m } } }),
  '.kube/config': (m) => `users:\n- name: x\n  user: { token: ${m} }\n`,
  '.ssh/known_hosts': (m) => m,
  '.gnupg/pubring.kbx': (m) => m,
  '.config/gcloud/credentials.db': (m) => m,
  '.config/gcloud/configurations/config_default': (m) => m,
  'gcloud/access_tokens.db': (m) => m,
  'application_default_credentials.json': (m) => m,
  '.netrc': (m) => `machine example.com login me password ${m}\n`,
  '.npmrc': (m) => `engine-strict=true\n//registry.npmjs.org/:_authToken=${m}\n`,
  'tools/.pypirc': (m) => `[pypi]\npassword = ${m}\n`,
  '.pgpass': (m) => `localhost:5432:db:user:${m}\n`,
  '.vault-token': (m) => m,
  'infra/terraform.tfvars': (m) => `db_password = "${m}"\n`,
  'infra/prod.auto.tfvars.json': (m) => JSON.stringify({ db_password: m }),
  'infra/terraform.tfstate': (m) => m,
  'infra/terraform.tfstate.backup': (m) => m,
  'infra/.terraform/terraform.tfstate': (m) => m,
  '.env': (m) => `API_KEY=${m}\n`,
  '.env.production': (m) => `API_KEY=${m}\n`,
  'deploy/prod.env': (m) => `API_KEY=${m}\n`,
  // Editor and tool backups of any of these.
  '.env~': (m) => `API_KEY=${m}\n`,
  '#.env#': (m) => `API_KEY=${m}\n`,
  '.env.swp': (m) => m,
  '.id_rsa.swp': (m) => m,
  'id_rsa.bak': (m) => m,
  '.git-credentials.orig': (m) => m,
  '.pgpass.old': (m) => m,
  'terraform.tfvars~': (m) => m,
  '.npmrc.bak': (m) => `//registry.npmjs.org/:_authToken=${m}\n`,
  'server.key.~1~': (m) => m,
};

/** What looks like a secret and is not: packed. */
const lookAlikes: Record<string, string> = {
  '.env.example': 'API_KEY=\n',
  '.env.sample': 'API_KEY=\n',
  'example.env': 'API_KEY=\n',
  'id_rsa.pub': 'ssh-ed25519 AAAA user@host\n',
  'src/id_token.ts': 'export {};\n',
  'ca/root.crt': pem('CERTIFICATE', 'MIIB'),
  'docs/keys.md': 'Never commit a file that starts with a PRIVATE KEY header; agentgen refuses one.\n',
  'src/sa.json': JSON.stringify({ type: 'service_account', note: 'a description of one, no key' }),
  'src/user.json': JSON.stringify({ type: 'authorized_user', note: 'no refresh token' }),
  '.npmrc-sample': 'engine-strict=true\n',
  'packages/a/.npmrc': 'engine-strict=true\n//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n',
  '.docker/nginx.conf': 'server {}\n',
  '.kube/README.md': 'kubeconfig goes elsewhere\n',
  'src/config.bak.ts': 'export {};\n',
  'infra/main.tf': 'variable "x" {}\n',
};

function unpacked(source: SourceArchive): string {
  return gunzipSync(source.archive).toString('latin1');
}

describe('every class of credential is refused, by name or by content', () => {
  let source: SourceArchive;
  beforeAll(async () => {
    source = await packSource(project({ ...Object.fromEntries(Object.entries(planted).map(([path, make]) => [path, make(marker(path))])), ...lookAlikes }));
  });

  test('none is packed, not one byte of any: the tar holds no secret marker', () => {
    const tar = unpacked(source);
    for (const path of Object.keys(planted)) {
      expect(source.files, path).not.toContain(path);
      expect(tar.includes(marker(path)), `${path}'s contents are in the archive`).toBe(false);
    }
  });

  test('each is named, with a class and why; the look-alikes are packed', () => {
    expect(source.leftOut.map((entry) => entry.path)).toEqual(Object.keys(planted).sort());
    for (const entry of source.leftOut) {
      expect(entry.secret, entry.path).toBeDefined();
      expect(entry.why, entry.path).not.toContain('MARKER');
    }
    expect(source.files).toEqual(['Dockerfile', ...Object.keys(lookAlikes)].sort());
    const found = Object.fromEntries(source.leftOut.map((entry) => [entry.path, entry]));
    expect(found['notes.txt']).toMatchObject({ secret: 'private key', why: expect.stringMatching(/holds a private key/) });
    expect(found['my-project-1a2b3c.json']).toMatchObject({ secret: 'private key' }); // its private_key is a PEM key
    expect(found['config/prod.json']).toMatchObject({ secret: 'cloud credentials', why: 'a Google credential file ("type": "authorized_user")' });
    expect(found['config/wif.json']).toMatchObject({ secret: 'cloud credentials', why: 'a Google credential file ("type": "external_account")' });
    expect(found['.aws/config']).toMatchObject({ secret: 'cloud credentials', why: expect.stringMatching(/^in \.aws\//) });
    expect(found['backup/aws-creds.ini']).toMatchObject({ secret: 'cloud credentials', why: expect.stringMatching(/AWS secret access key/) });
    expect(found['.npmrc']).toMatchObject({ secret: 'token or password file', why: expect.stringMatching(/registry token/) });
    expect(found['#.env#']).toMatchObject({ secret: 'environment file', why: expect.stringMatching(/^a backup copy of \.env, /) });
    expect(found['.id_rsa.swp']).toMatchObject({ secret: 'private key', why: expect.stringMatching(/^a backup copy of id_rsa, /) });
    expect(found['infra/terraform.tfstate.backup']).toMatchObject({ secret: 'Terraform variables or state' });
  });

  test('a service-account key whose key is not PEM (a test double) is still known by its fields', async () => {
    const dir = project({ 'my-project-9f8e7d.json': JSON.stringify({ type: 'service_account', private_key: 'not-a-pem', client_email: 'x' }) });
    expect((await packSource(dir)).leftOut).toEqual([
      { path: 'my-project-9f8e7d.json', secret: 'cloud credentials', why: 'a Google credential file ("type": "service_account")' },
    ]);
  });

  test("a backup's why names the original escaped, as a file name is", async () => {
    const source = await packSource(project({ 'id_\u001b[2J.bak': 'x' }));
    expect(source.leftOut).toEqual([
      { path: 'id_\u001b[2J.bak', secret: 'private key', why: 'a backup copy of id_\\x1b[2j, an SSH private key (id_*, not *.pub)' },
    ]);
  });

  test('a key far into a large file is found: the whole file is read, not only its head', async () => {
    const dir = project({ 'data/blob.bin': Buffer.concat([Buffer.alloc(3 * 1024 * 1024, 7), Buffer.from(pem('PRIVATE KEY', 'deep'))]) });
    expect((await packSource(dir)).leftOut.map((entry) => entry.path)).toEqual(['data/blob.bin']);
  });

  test('an ignore file cannot bring one back, by name or by content', async () => {
    const dir = project({ '.dockerignore': '!notes.txt\n!.aws\n!.aws/credentials\n', 'notes.txt': pem('PRIVATE KEY', 'x'), '.aws/credentials': 'x' });
    const packed = await packSource(dir);
    expect(packed.files).toEqual(['.dockerignore', 'Dockerfile']);
    expect(packed.leftOut.map((entry) => entry.path)).toEqual(['.aws/credentials', 'notes.txt']);
  });

  test('a Dockerfile that holds a key is refused, saying why, not packed', async () => {
    const dir = project({ Dockerfile: `FROM scratch\nRUN echo "${pem('RSA PRIVATE KEY', 'x')}"\n` });
    await expect(packSource(dir)).rejects.toThrow(
      new SourceArchiveError(
        'the platform builds the project from its Dockerfile (imageSpec), and the project\'s Dockerfile looks like a secret (holds a private key (a PEM "BEGIN … PRIVATE KEY" line or another key format)); it is never packed',
      ),
    );
  });
});

describe('allowSecrets lets exactly the named files through', () => {
  const files = { 'notes.txt': pem('PRIVATE KEY', 'n'), 'sub/notes.txt': pem('PRIVATE KEY', 's'), '.env': 'A=1\n', '.ssh/config': 'Host x\n' };

  test('a file refused by content, one by name and one in a credential folder; the others stay out', async () => {
    const dir = project(files);
    const source = await packSource(dir, { allowSecrets: new Set(['notes.txt', '.env', '.ssh/config']) });
    expect(source.files).toEqual(['.env', '.ssh/config', 'Dockerfile', 'notes.txt']);
    expect(source.leftOut).toEqual([{ path: 'sub/notes.txt', secret: 'private key', why: expect.stringMatching(/private key/) }]);
    expect(source.allowedSecrets.map((entry) => [entry.path, entry.secret])).toEqual([
      ['.env', 'environment file'],
      ['.ssh/config', 'private key'],
      ['notes.txt', 'private key'],
    ]);
    expect(unpacked(source)).toContain('-----BEGIN PRIVATE KEY-----\nn\n');
    expect(unpacked(source)).not.toContain('-----BEGIN PRIVATE KEY-----\ns\n');
  });

  test('an allowed path that is a symbolic link is still left out as one, and not reported as let through', async () => {
    const dir = project({ 'real.env': 'A=1\n' });
    symlinkSync('real.env', join(dir, '.env'));
    const source = await packSource(dir, { allowSecrets: new Set(['.env']) });
    expect(source.allowedSecrets).toEqual([]);
    expect(source.leftOut).toEqual([
      { path: '.env', why: expect.stringMatching(/^a symbolic link/) },
      { path: 'real.env', secret: 'environment file', why: expect.stringMatching(/environment file/) },
    ]);
  });

  test('a path that names no refused file lets nothing through and is not reported as let through', async () => {
    const source = await packSource(project(files), { allowSecrets: new Set(['NOTES.txt', 'notes', 'sub']) });
    expect(source.allowedSecrets).toEqual([]);
    expect(source.leftOut.map((entry) => entry.path)).toEqual(['.env', '.ssh/config', 'notes.txt', 'sub/notes.txt']);
  });
});

describe('file names that are not UTF-8', () => {
  test('refused with a message that names the file, its bad bytes escaped, not an ENOENT', async () => {
    const dir = project({ 'src/a.ts': 'x' });
    writeFileSync(Buffer.concat([Buffer.from(join(dir, 'src/')), Buffer.from([0x62, 0xff, 0x1b, 0x5b, 0x32, 0x4a, 0x2e, 0x74, 0x73])]), 'x');
    const error = await packSource(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceArchiveError);
    expect((error as Error).message).toBe(
      "src/b\\xff\\x1b[2J.ts has a name that is not UTF-8 (its bytes are shown as \\xNN); the archive's names are UTF-8: rename it, or leave it out in .gcloudignore (gitignore syntax)",
    );
    expect((error as Error).message).not.toMatch(/[\u0000-\u001f]/);
  });

  test('a folder so named is refused the same way, before anything in it is read', async () => {
    const dir = project({});
    const folder = Buffer.concat([Buffer.from(`${dir}/`), Buffer.from([0x64, 0xe9])]); // "dé" in Latin-1
    mkdirSync(folder);
    writeFileSync(Buffer.concat([folder, Buffer.from('/a.ts')]), 'x');
    await expect(packSource(dir)).rejects.toThrow(/^d\\xe9 has a name that is not UTF-8/);
    writeFileSync(join(dir, '.dockerignore'), 'd*\n');
    expect((await packSource(dir)).files).toEqual(['.dockerignore', 'Dockerfile']);
  });

  test('one the ignore file leaves out (its folder) is no concern', async () => {
    const dir = project({ '.gcloudignore': 'cache/\n', 'src/a.ts': 'x' });
    mkdirSync(join(dir, 'cache'));
    writeFileSync(Buffer.concat([Buffer.from(join(dir, 'cache/')), Buffer.from([0xc3, 0x28])]), 'x');
    expect((await packSource(dir)).files).toEqual(['.gcloudignore', 'Dockerfile', 'src/a.ts']);
  });
});

describe("one size limit, deploy's and dev's", () => {
  test('dev counts entries as deploy does: files and folders, not the records that carry a long name', () => {
    const limit = sourceArchiveLimits.entries;
    // Every name over ustar's 100 bytes, so each file brings a PAX record: dev once counted 2 entries a file.
    const entries = (count: number): TarEntry[] => [
      { type: 'file', path: 'Dockerfile', data: Buffer.from('FROM scratch\n'), executable: false },
      ...Array.from({ length: count - 1 }, (_, i): TarEntry => ({ type: 'file', path: `${'n'.repeat(100)}${i}`, data: Buffer.alloc(0), executable: false })),
    ];
    const base64 = (count: number) => gzipSync(tarArchive(entries(count))).toString('base64');
    expect(checkSourceArchive(base64(limit)).files).toBe(limit);
    expect(() => checkSourceArchive(base64(limit + 1))).toThrow(`holds more than ${limit} entries, agentgen dev's limit`);
  });

  test('what deploy packs just under the unpacked limit dev accepts; just over it, deploy refuses before sending', async () => {
    const limit = sourceArchiveLimits.unpackedBytes;
    // Zeros compress to almost nothing: only the unpacked limit can refuse them (a 250 MB file of them once passed deploy and failed dev).
    const under = await packSource(project({ 'zeros.bin': Buffer.alloc(limit - 64 * 1024) }));
    expect(checkSourceArchive(under.archive.toString('base64')).files).toBe(2);
    const over = project({ 'zeros.bin': Buffer.alloc(limit - 600) }); // the files fit, the tar's headers and padding do not
    await expect(packSource(over)).rejects.toThrow(/^the archive is 32\.0 MiB unpacked, over agentgen's limit of 32\.0 MiB unpacked for a deploy from source/);
    await expect(packSource(project({ 'zeros.bin': Buffer.alloc(limit + 1) }))).rejects.toThrow(
      /^the files to pack add up to 32\.0 MiB, over agentgen's limit of 32\.0 MiB unpacked/,
    );
  });
});
