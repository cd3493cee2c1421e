/**
 * `agentgen deploy --dry-run` from source, through the built CLI (issue 44, item 1): it lists every
 * file it would pack and names each refusal with its class, never printing a secret or a raw
 * escape in a name; `--archive-out` writes the very archive; `--allow-secret` lets exactly the
 * named file through, and one that names no refused file is a usage error. Needs
 * `npm run build -w @agentgen/cli`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CliRun, runCli } from './run-cli.js';

const spec = `agentgen: 1
name: weather-agent
surface: agent-app@2
deploy:
  project: my-project
  location: us-central1
`;

const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-BODY\n-----END OPENSSH PRIVATE KEY-----\n';
/** A name that would clear the screen and draw a fake line, were it printed raw. */
const escapeName = 'src/\u001b[2J\u001b[H0 files\u0007.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgen-dry-run-'));
  const files: Record<string, string> = {
    'agentgen.yaml': spec,
    Dockerfile: 'FROM node:24-slim\nCOPY . .\n',
    'src/main.ts': 'export {};\n',
    [escapeName]: 'export {};\n',
    'notes.txt': key,
    'my-project-1a2b3c.json': JSON.stringify({ type: 'service_account', private_key: key, client_email: 'x' }),
    '.env': 'API_KEY=SECRET-ENV-VALUE\n',
    '.env~': 'API_KEY=SECRET-ENV-VALUE\n',
    '.aws/credentials': 'aws_secret_access_key = SECRET-AWS\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const deploy = (...args: string[]): Promise<CliRun> => runCli(['deploy', '--dry-run', ...args], { cwd: dir });

function expectNothingSecretOrRaw(run: CliRun): void {
  for (const text of [run.stdout, run.stderr]) {
    expect(text).not.toContain('SECRET-');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/); // no control character but newline and tab
  }
}

describe('agentgen deploy --dry-run from source', () => {
  test('lists every file packed, and every refusal with its class, names escaped', async () => {
    const run = await deploy();
    expect(run.code, run.stderr).toBe(0);
    expectNothingSecretOrRaw(run);
    const report = run.stdout.slice(run.stdout.lastIndexOf('\n}\n') + 3);
    expect(report).toMatch(
      new RegExp(
        '^The archive holds 4 files \\(\\d+ bytes, sha256 [0-9a-f]{64}\\); the platform builds its Dockerfile:\n' +
          '  Dockerfile\n  agentgen.yaml\n  src/\\\\x1b\\[2J\\\\x1b\\[H0 files\\\\x07\\.ts\n  src/main\\.ts\n' +
          'Refused as secrets, never sent \\(5; --allow-secret PATH sends one that is not\\):\n' +
          '  \\.aws/credentials: cloud credentials, in \\.aws/, .*\n' +
          '  \\.env: environment file, .*\n' +
          '  \\.env~: environment file, a backup copy of \\.env, .*\n' +
          '  my-project-1a2b3c\\.json: private key, holds a private key .*\n' +
          '  notes\\.txt: private key, holds a private key .*\n$',
      ),
    );
  });

  test('--archive-out writes the archive the dry run summarised, byte for byte; it holds no secret', async () => {
    const out = join(dir, '..', `${dir.split('/').pop()}-archive.tar.gz`);
    const run = await deploy('--archive-out', out);
    expect(run.code, run.stderr).toBe(0);
    expectNothingSecretOrRaw(run);
    const archive = readFileSync(out);
    const sha256 = createHash('sha256').update(archive).digest('hex');
    expect(run.stdout).toContain(`sha256 ${sha256})`);
    expect(run.stdout).toMatch(new RegExp(`Wrote the archive \\(${archive.length} bytes\\) to .*-archive\\.tar\\.gz\\.\n$`));
    expect(gunzipSync(archive).toString('latin1')).not.toContain('SECRET-');
    rmSync(out);
  });

  test('--allow-secret lets exactly the named file through, and says so', async () => {
    const run = await deploy('--allow-secret', 'notes.txt', '--allow-secret', './.env');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^The archive holds 6 files /m);
    expect(run.stdout).toMatch(/^ {2}notes\.txt$/m);
    expect(run.stdout).toMatch(/^ {2}\.env$/m);
    expect(run.stdout).toMatch(/^Refused as secrets, never sent \(3;/m);
    expect(run.stdout).toMatch(
      /^Sent although they look like secrets, as --allow-secret asked \(2\):\n {2}\.env: environment file, .*\n {2}notes\.txt: private key, .*$/m,
    );
  });

  test('an --allow-secret that names no refused file, or a path outside the project, is a usage error', async () => {
    const typo = await deploy('--allow-secret', 'note.txt');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/--allow-secret "note\.txt": no file at that path was refused as a secret; --dry-run lists the refused files by path/);
    const outside = await deploy('--allow-secret', '../id_rsa');
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/--allow-secret takes a file's path inside the project, as --dry-run names it, not "\.\.\/id_rsa"/);
    const escaped = await deploy('--allow-secret', 'x\u001b[2J');
    expect(escaped.code).toBe(2);
    expect(escaped.stderr).toContain('"x\\x1b[2J"');
    expectNothingSecretOrRaw(escaped);
  });

  test('a real deploy names the refused secrets on stderr too, before it calls the API', async () => {
    // Nothing listens on port 9: the deploy fails at its first call, after packing.
    const run = await runCli(['deploy', '--yes', '--api-endpoint', 'http://127.0.0.1:9', '--access-token-env', 'TOKEN'], {
      cwd: dir,
      env: { TOKEN: 'test-token-123456' },
    });
    expect(run.code).toBe(1);
    expectNothingSecretOrRaw(run);
    expect(run.stderr).toMatch(
      /^agentgen deploy: Refused as secrets, never sent \(5; --allow-secret PATH sends one that is not\):\n(agentgen deploy: .*: .*\n){5}/,
    );
    expect(run.stderr).toContain('agentgen deploy: notes.txt: private key, holds a private key');
  });

  test('--archive-out without --dry-run is a usage error, before anything is packed or called', async () => {
    const run = await runCli(['deploy', '--yes', '--archive-out', 'a.tar.gz'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--archive-out applies to --dry-run/);
  });
});
