/**
 * packSource: the project packed for a deploy from source (issue 32, item 1), on real files in a
 * temporary folder, read back with the system's GNU tar. What the ignore files leave out and what
 * is never sent, the Dockerfile the platform builds, symbolic links, identical bytes for the same
 * tree, the size and file-count caps, and the scaffold's Dockerfile finding every file it copies.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inlineSourceLimitBytes, packSource, type SourceArchive, SourceArchiveError, sourceFileLimit } from '../../cli/src/deploy/source-archive.js';
import { dockerIgnore, readDockerIgnore } from '../../cli/src/deploy/source-archive-dockerignore.js';
import { scaffoldProject } from '../../cli/src/scaffold/scaffold-project.js';
import { writeProject } from '../../cli/src/scaffold/write-project.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'agentgen-source-archive-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** A fresh project folder holding `files` (path → contents), a Dockerfile unless one is given as null. */
function project(files: Record<string, string | Buffer | null>): string {
  const dir = join(root, `p${++count}`);
  const all = { Dockerfile: 'FROM scratch\n', ...files };
  for (const [path, contents] of Object.entries(all)) {
    if (contents === null) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), contents);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The archive as GNU tar lists it (`tar -tzf`). */
function tarList(source: SourceArchive): string[] {
  const file = join(root, `list-${++count}.tar.gz`);
  writeFileSync(file, source.archive);
  return execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** The archive extracted by GNU tar (`tar -xzf`) into a new folder. */
function extract(source: SourceArchive): string {
  const file = join(root, `x-${++count}.tar.gz`);
  const into = join(root, `x-${count}`);
  writeFileSync(file, source.archive);
  mkdirSync(into);
  execFileSync('tar', ['-xzf', file, '-C', into]);
  return into;
}

/** Every file under `dir`, relative with '/', sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

async function refusal(dir: string): Promise<string> {
  const error = await packSource(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceArchiveError);
  return (error as Error).message;
}

describe('what is packed, read back with GNU tar', () => {
  test('with no ignore file: every file, byte for byte, but node_modules/ and .git (folder or file) at any depth', async () => {
    const dir = project({
      'package.json': '{"name":"x"}\n',
      'src/main.ts': 'export {};\n',
      'src/deep/er/data.bin': randomBytes(3000),
      'node_modules/a/index.js': 'x',
      'packages/lib/node_modules/b/index.js': 'x',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'vendor/sub/.git': 'gitdir: ../../.git/modules/sub\n',
      'vendor/sub/file.txt': 'kept',
    });
    const source = await packSource(dir);
    const expected = ['Dockerfile', 'package.json', 'src/deep/er/data.bin', 'src/main.ts', 'vendor/sub/file.txt'];
    expect(source.files).toEqual(expected);
    expect(source.leftOut).toEqual([]);
    // Folders first, then what they hold, in one sorted order.
    expect(tarList(source)).toEqual([
      'Dockerfile',
      'package.json',
      'src/',
      'src/deep/',
      'src/deep/er/',
      'src/deep/er/data.bin',
      'src/main.ts',
      'vendor/',
      'vendor/sub/',
      'vendor/sub/file.txt',
    ]);
    const out = extract(source);
    expect(filesUnder(out)).toEqual(expected);
    for (const path of expected) expect(readFileSync(join(out, path)).equals(readFileSync(join(dir, path)))).toBe(true);
    expect(source.bytes).toBe(source.archive.length);
    expect(source.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a fixed owner, date and mode: 0/0, 1980-01-01, 0755 for executables and folders, 0644 for the rest', async () => {
    const dir = project({ 'run.sh': '#!/bin/sh\n', 'private.txt': 'x', 'src/a.ts': '' });
    chmodSync(join(dir, 'run.sh'), 0o700);
    chmodSync(join(dir, 'private.txt'), 0o600);
    const file = join(root, 'modes.tar.gz');
    writeFileSync(file, (await packSource(dir)).archive);
    const listing = execFileSync('tar', ['-tvzf', file, '--numeric-owner', '--utc'], { encoding: 'utf8' }).trim().split('\n');
    expect(listing.map((line) => line.replace(/\s+/g, ' '))).toEqual([
      '-rw-r--r-- 0/0 13 1980-01-01 00:00 Dockerfile',
      '-rw-r--r-- 0/0 1 1980-01-01 00:00 private.txt',
      '-rwxr-xr-x 0/0 10 1980-01-01 00:00 run.sh',
      'drwxr-xr-x 0/0 0 1980-01-01 00:00 src/',
      '-rw-r--r-- 0/0 0 1980-01-01 00:00 src/a.ts',
    ]);
  });

  test('a path longer than ustar\'s 100 bytes, and one not in ASCII, come back whole (PAX "path" records)', async () => {
    const long = `src/${'a-rather-long-folder-name/'.repeat(6)}and-a-file-name-as-well.ts`;
    expect(Buffer.byteLength(long)).toBeGreaterThan(100);
    const unicode = `src/${'données-é'.repeat(12)}.txt`;
    const dir = project({ [long]: 'long', [unicode]: 'unicode', 'src/é.txt': 'short' });
    const source = await packSource(dir);
    expect(tarList(source)).toEqual(expect.arrayContaining([long, unicode, 'src/é.txt']));
    const out = extract(source);
    expect(readFileSync(join(out, long), 'utf8')).toBe('long');
    expect(readFileSync(join(out, unicode), 'utf8')).toBe('unicode');
  });

  test('a gzip with no name and no time in its header (RFC 1952: MTIME 0, no FNAME), OS byte Unix', async () => {
    const { archive } = await packSource(project({}));
    expect([...archive.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
    // A POSIX tar inside: the ustar magic of the first header.
    expect(gunzipSync(archive).subarray(257, 263).toString('latin1')).toBe('ustar\0');
  });
});

describe('the same tree packs to the same bytes', () => {
  test('twice, after touching every mtime, and after changing non-executable mode bits; not after a content change', async () => {
    const dir = project({ 'src/a.ts': 'a', 'src/b/c.ts': 'c', 'README.md': '# x\n' });
    const first = await packSource(dir);
    const second = await packSource(dir);
    expect(second.archive.equals(first.archive)).toBe(true);
    const later = new Date('2031-05-06T07:08:09Z');
    for (const path of ['src/a.ts', 'src/b/c.ts', 'README.md', 'src/b', 'src', 'Dockerfile']) utimesSync(join(dir, path), later, later);
    chmodSync(join(dir, 'README.md'), 0o600);
    const touched = await packSource(dir);
    expect(touched.archive.equals(first.archive)).toBe(true);
    expect(touched.sha256).toBe(first.sha256);
    writeFileSync(join(dir, 'src/a.ts'), 'b');
    expect((await packSource(dir)).sha256).not.toBe(first.sha256);
  });
});

describe('never sent: secret-looking files, whatever the ignore file says', () => {
  const secrets = [
    '.env',
    '.env.local',
    '.env.production',
    'config/.env',
    'server.pem',
    'tls/server.KEY',
    'cert.p12',
    'cert.pfx',
    'id_rsa',
    'keys/id_ed25519',
    'sub/.netrc',
    'credentials.json',
    'gcp-credentials-prod.json',
    'my-service-account.json',
    'deploy-sa-key.json',
  ];
  // A public key is no secret, and an .npmrc without a token is what `npm ci` in the build needs (engine-strict, a registry).
  const harmless = ['.env.example', 'src/keys.ts', 'credentials.ts', 'service-account.md', 'environment.ts', 'package.json', 'id_rsa.pub', '.npmrc'];

  test('left out and reported with why and class; look-alikes are packed', async () => {
    const dir = project(Object.fromEntries([...secrets, ...harmless].map((path) => [path, 'secret-or-not'])));
    const source = await packSource(dir);
    expect(source.files).toEqual(['Dockerfile', ...harmless].sort());
    expect(source.leftOut.map((entry) => entry.path)).toEqual([...secrets].sort());
    const found = Object.fromEntries(source.leftOut.map((entry) => [entry.path, entry]));
    expect(found['.env.local']).toMatchObject({ secret: 'environment file', why: expect.stringMatching(/environment file/) });
    expect(found['tls/server.KEY']).toMatchObject({ secret: 'private key', why: expect.stringMatching(/private key or certificate/) });
    expect(found['id_rsa']).toMatchObject({ secret: 'private key', why: expect.stringMatching(/SSH private key/) });
    expect(found['deploy-sa-key.json']).toMatchObject({ secret: 'cloud credentials', why: expect.stringMatching(/credentials file/) });
    expect(tarList(source)).not.toContain('.env');
  });

  test.each([
    ['.gcloudignore', '!.env\n!*.pem\n!.npmrc\n!node_modules/\n!.git/\n'],
    ['.dockerignore', '!.env\n!*.pem\n!.npmrc\n!node_modules\n!.git\n'],
  ])('%s re-including them with "!" changes nothing', async (file, text) => {
    const dir = project({ [file]: text, '.env': 'TOKEN=1', 'a.pem': 'k', '.npmrc': '//registry/:_authToken=x', 'node_modules/x/i.js': 'x', '.git/HEAD': 'x' });
    const source = await packSource(dir);
    expect(source.files).toEqual([file, 'Dockerfile'].sort());
    expect(source.leftOut.map((entry) => entry.path)).toEqual(['.env', '.npmrc', 'a.pem']);
  });

  test('a secret the ignore file already leaves out is not reported again', async () => {
    const source = await packSource(project({ '.gcloudignore': '.env\n', '.env': 'x', 'b.key': 'x' }));
    expect(source.leftOut).toEqual([{ path: 'b.key', why: expect.stringMatching(/private key/), secret: 'private key' }]);
  });
});

describe('.gcloudignore: gitignore syntax, as gcloud reads it', () => {
  test('takes precedence over .dockerignore, which is then only a file', async () => {
    const dir = project({ '.gcloudignore': 'only-gcloud.txt\n', '.dockerignore': 'only-docker.txt\n', 'only-gcloud.txt': 'x', 'only-docker.txt': 'x' });
    expect((await packSource(dir)).files).toEqual(['.dockerignore', '.gcloudignore', 'Dockerfile', 'only-docker.txt']);
  });

  test('a name matches at any depth, a trailing "/" means a folder, "!" re-includes, "**" crosses folders', async () => {
    const dir = project({
      '.gcloudignore': ['*.log', 'build', 'dist/', '*.md', '!README.md', 'docs/**/*.txt', '# a comment', 'Out.txt'].join('\n'),
      'a.log': 'x',
      'src/deep/b.log': 'x',
      'build/x.js': 'x',
      'src/build/y.js': 'x',
      'dist/z.js': 'x',
      'src/dist': 'a file named dist is not a folder',
      'CHANGELOG.md': 'x',
      'README.md': 'x',
      'src/README.md': 'x',
      'docs/a.txt': 'x',
      'docs/x/y/b.txt': 'x',
      'docs/keep.html': 'x',
      'out.txt': 'case-sensitive, as gcloud on Linux',
    });
    expect((await packSource(dir)).files).toEqual(['.gcloudignore', 'Dockerfile', 'README.md', 'docs/keep.html', 'out.txt', 'src/README.md', 'src/dist']);
  });

  test('a file inside a left-out folder cannot be re-included (gitignore; gcloud likewise)', async () => {
    const dir = project({ '.gcloudignore': 'dist/\n!dist/keep.js\n', 'dist/keep.js': 'x', 'dist/drop.js': 'x' });
    expect((await packSource(dir)).files).toEqual(['.gcloudignore', 'Dockerfile']);
  });

  test("#!include:.gitignore inserts that file's lines where it stands (gcloud's default .gcloudignore has it)", async () => {
    const dir = project({
      '.gcloudignore': '.gcloudignore\n.gitignore\n#!include:.gitignore\n!keep.tmp\n',
      '.gitignore': 'coverage/\n*.tmp\n#!include:other\n',
      other: 'other-ignored.txt\n',
      'coverage/lcov.info': 'x',
      'a.tmp': 'x',
      'keep.tmp': 'x',
      'other-ignored.txt': 'an include inside an included file is only a comment (gcloud: recurse=1)',
    });
    expect((await packSource(dir)).files).toEqual(['Dockerfile', 'keep.tmp', 'other', 'other-ignored.txt']);
  });

  test('a bad #!include is refused, as gcloud refuses it', async () => {
    expect(await refusal(project({ '.gcloudignore': '#!include:missing\n' }))).toBe(
      '.gcloudignore: "#!include:missing" includes missing, which does not exist',
    );
    expect(await refusal(project({ '.gcloudignore': '#!include:sub/.gitignore\n', 'sub/.gitignore': 'x' }))).toMatch(
      /may include only a file beside \.gcloudignore, named without a '\/'/,
    );
  });

  test('a .gcloudignore that leaves out the Dockerfile is refused, saying so', async () => {
    expect(await refusal(project({ '.gcloudignore': 'Docker*\n' }))).toBe(
      'the platform builds the project from its Dockerfile (imageSpec), but .gcloudignore leaves the Dockerfile out; remove the line that matches it, or build and push an image and set deploy.image',
    );
  });
});

describe(".dockerignore: Docker's semantics, when there is no .gcloudignore", () => {
  test('anchored at the root, "!" re-includes inside a left-out folder, "**" crosses folders', async () => {
    const dir = project({
      '.dockerignore': ['dist', '!dist/keep.js', '*.md', '**/*.log', 'tmp/', 'src/*/gen*'].join('\n'),
      'dist/keep.js': 'x',
      'dist/drop.js': 'x',
      'src/dist/index.js': 'not at the root: packed',
      'CHANGELOG.md': 'x',
      'docs/guide.md': 'not at the root: packed',
      'a.log': 'x',
      'src/x/y.log': 'x',
      'tmp/t.txt': 'x',
      'src/a/generated.ts': 'x',
      'src/a/b/generated.ts': 'two levels down: packed',
    });
    expect((await packSource(dir)).files).toEqual([
      '.dockerignore',
      'Dockerfile',
      'dist/keep.js',
      'docs/guide.md',
      'src/a/b/generated.ts',
      'src/dist/index.js',
    ]);
  });

  test('the Dockerfile and .dockerignore are packed even when listed, as Docker still sends them to the builder', async () => {
    const dir = project({ '.dockerignore': 'Dockerfile\n.dockerignore\nsrc\n', 'src/a.ts': 'x' });
    expect((await packSource(dir)).files).toEqual(['.dockerignore', 'Dockerfile']);
  });

  test('a pattern Docker cannot compile is refused', async () => {
    expect(await refusal(project({ '.dockerignore': 'src/[\n' }))).toBe('.dockerignore: syntax error in pattern "src/[", as Docker would refuse it');
    // The pattern is the project's text: escaped, as file names are.
    expect(await refusal(project({ '.dockerignore': '\u001b[2J[\n' }))).toBe('.dockerignore: syntax error in pattern "\\x1b[2J[", as Docker would refuse it');
    expect(await refusal(project({ '.gcloudignore': '#!include:\u001b[2Jx\n' }))).toBe(
      '.gcloudignore: "#!include:\\x1b[2Jx" includes \\x1b[2Jx, which does not exist',
    );
  });
});

describe('the Dockerfile', () => {
  test('missing: refused, naming the way out', async () => {
    const dir = project({ Dockerfile: null, 'src/a.ts': 'x' });
    expect(await refusal(dir)).toBe(
      `the platform builds the project from its Dockerfile (imageSpec), and the project has none at its root (${dir}); add one, or build and push an image and set deploy.image`,
    );
  });
  test('a symbolic link instead of a file: refused', async () => {
    const dir = project({ Dockerfile: null, 'docker/Dockerfile': 'FROM scratch\n' });
    symlinkSync('docker/Dockerfile', join(dir, 'Dockerfile'));
    expect(await refusal(dir)).toMatch(/the project's Dockerfile is not a regular file/);
  });
});

describe('symbolic links are not followed', () => {
  test('one pointing outside the project is refused with its path; the target is not named', async () => {
    const outside = mkdtempSync(join(root, 'outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'do not upload');
    const dir = project({ 'src/a.ts': 'x' });
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'src/linked.txt'));
    const message = await refusal(dir);
    expect(message).toBe(
      "src/linked.txt is a symbolic link to a path outside the project; a deploy from source packs only the project's own files: copy the file in, or leave the link out in .gcloudignore (gitignore syntax)",
    );
    expect(message).not.toContain(outside);
    // Relative and through '..' is outside too; left out by the ignore file, it is no concern.
    const relativeOut = project({ '.gcloudignore': 'ignored-link\n' });
    symlinkSync('../../etc/passwd', join(relativeOut, 'up'));
    symlinkSync('/etc/passwd', join(relativeOut, 'ignored-link'));
    expect(await refusal(relativeOut)).toMatch(/^up is a symbolic link to a path outside the project/);
  });

  test('one inside the project (to a file or a folder) is left out and reported', async () => {
    const dir = project({ 'src/a.ts': 'x', 'lib/b.ts': 'y' });
    symlinkSync('../src/a.ts', join(dir, 'lib/a-link.ts'));
    symlinkSync('src', join(dir, 'src-link'));
    const source = await packSource(dir);
    expect(source.files).toEqual(['Dockerfile', 'lib/b.ts', 'src/a.ts']);
    expect(source.leftOut).toEqual([
      { path: 'lib/a-link.ts', why: expect.stringMatching(/^a symbolic link/) },
      { path: 'src-link', why: expect.stringMatching(/^a symbolic link/) },
    ]);
    expect(tarList(source)).toEqual(['Dockerfile', 'lib/', 'lib/b.ts', 'src/', 'src/a.ts']);
  });
});

describe('the caps', () => {
  test(`over ${inlineSourceLimitBytes / 1024 / 1024} MiB compressed: refused with the size, the limit, the 5 largest files and the way out`, async () => {
    const dir = project({
      'assets/big.bin': randomBytes(inlineSourceLimitBytes + 64 * 1024),
      'assets/b.bin': randomBytes(4096),
      'c.bin': randomBytes(3072),
      'd.bin': randomBytes(2048),
      'e.bin': randomBytes(1500),
      'f.bin': randomBytes(10),
    });
    const message = await refusal(dir);
    expect(message).toMatch(
      /^the packed source is 8\.\d MiB compressed, over agentgen's limit of 8\.0 MiB compressed for a deploy from source \(the API publishes no limit; the request carries/,
    );
    expect(message).toContain(
      'The largest files packed:\n  assets/big.bin (8.1 MiB)\n  assets/b.bin (4.0 KiB)\n  c.bin (3.0 KiB)\n  d.bin (2.0 KiB)\n  e.bin (1.5 KiB)\n',
    );
    expect(message).not.toContain('f.bin');
    expect(message).toMatch(/Leave out what the build does not need in \.gcloudignore \(gitignore syntax\), or build and push an image and set deploy\.image/);
    // Just under the cap (a little over 8 MiB of zeros compresses to almost nothing): packed.
    const small = project({ 'zeros.bin': Buffer.alloc(inlineSourceLimitBytes + 1024) });
    expect((await packSource(small)).bytes).toBeLessThan(inlineSourceLimitBytes);
  });

  test('files adding up to far more than could ever fit are refused before they are read', async () => {
    const dir = project({ '.dockerignore': 'nothing\n' });
    writeFileSync(join(dir, 'huge.bin'), '');
    truncateSync(join(dir, 'huge.bin'), 300 * 1024 * 1024); // sparse: no disk, and never read
    const message = await refusal(dir);
    expect(message).toMatch(
      /^the files to pack add up to 300\.0 MiB, over agentgen's limit of 32\.0 MiB unpacked for a deploy from source \(the API publishes no limit; agentgen dev checks the same\)/,
    );
    expect(message).toMatch(/huge\.bin \(300\.0 MiB\)/);
    expect(message).toMatch(/in \.dockerignore, or build and push an image/);
  });

  test(`more than ${sourceFileLimit.toLocaleString('en-US')} files: refused`, async () => {
    const dir = project({});
    for (let folder = 0; folder <= sourceFileLimit / 1000; folder++) {
      mkdirSync(join(dir, `gen/${folder}`), { recursive: true });
      for (let i = 0; i < 1000; i++) writeFileSync(join(dir, `gen/${folder}/${i}.txt`), '');
    }
    expect(await refusal(dir)).toBe(
      "the project has more than 20,000 files to pack; a deploy from source takes the project's sources, not build output or vendored trees: leave those folders out in .gcloudignore (gitignore syntax), or build and push an image and set deploy.image",
    );
    writeFileSync(join(dir, '.gcloudignore'), 'gen/\n');
    expect((await packSource(dir)).files).toEqual(['.gcloudignore', 'Dockerfile']);
  }, 60_000);

  test('a project folder that does not exist', async () => {
    expect(await refusal(join(root, 'no-such-project'))).toBe(`the project folder ${join(root, 'no-such-project')} does not exist`);
  });
});

describe("the scaffold's Dockerfile builds from what is packed", () => {
  /** The sources of each COPY that does not copy from a stage (`--from=`): all its words but flags and the destination. */
  function copySources(dockerfile: string): string[] {
    return dockerfile
      .split('\n')
      .filter((line) => /^COPY\s/i.test(line) && !/\s--from=/.test(line))
      .flatMap((line) =>
        line
          .trim()
          .split(/\s+/)
          .slice(1, -1)
          .filter((word) => !word.startsWith('--')),
      );
  }

  test.each(['adk', 'custom'] as const)('the %s template: every COPY source is in the archive, and nothing needs BuildKit', async (template) => {
    const dir = join(root, `scaffold-${template}`);
    await writeProject(dir, await scaffoldProject({ name: 'my-agent', template, packageManager: 'npm' }));
    // A real project has package-lock.json after `npm install`, which this test does not run: an empty one stands in.
    writeFileSync(join(dir, 'package-lock.json'), '');
    // What a developer's checkout also holds, none of which the build may need.
    mkdirSync(join(dir, 'node_modules/zod'), { recursive: true });
    writeFileSync(join(dir, 'node_modules/zod/index.js'), '');
    mkdirSync(join(dir, 'dist/src'), { recursive: true });
    writeFileSync(join(dir, 'dist/src/main.js'), '');
    writeFileSync(join(dir, '.env'), 'GOOGLE_API_KEY=x\n');

    const source = await packSource(dir);
    const dockerfile = readFileSync(join(dir, 'Dockerfile'), 'utf8');
    const sources = copySources(dockerfile);
    expect(sources).toEqual(['package.json', 'package-lock.json', '.', 'package.json', 'package-lock.json']);
    // `COPY . .`: the whole context as Docker filters it with the project's own .dockerignore.
    const docker = dockerIgnore(readDockerIgnore(readFileSync(join(dir, '.dockerignore'), 'utf8')));
    const context = filesUnder(dir).filter((path) => !docker.ignores(path) && !path.startsWith('node_modules/') && path !== '.env');
    for (const copied of sources) {
      if (copied === '.') expect(source.files).toEqual(context);
      else expect(source.files).toContain(copied);
    }
    expect(source.files).toEqual(expect.arrayContaining(['Dockerfile', 'agentgen.yaml', 'tsconfig.json', 'src/main.ts']));
    expect(source.files.some((path) => path.startsWith('generated/'))).toBe(true); // `agentgen check` in the build needs them
    expect(source.files.filter((path) => path.startsWith('dist/') || path.startsWith('node_modules/') || path.startsWith('.github/'))).toEqual([]);
    expect(source.leftOut).toEqual([]); // .env: the scaffold's .dockerignore already leaves it out
    expect(tarList(source).filter((path) => !path.endsWith('/'))).toEqual(source.files);
    // The classic builder (no BuildKit) can build it: no RUN --mount, no # syntax= directive.
    expect(dockerfile).not.toMatch(/--mount=/);
    expect(dockerfile).not.toMatch(/^#\s*syntax=/m);
  });
});
