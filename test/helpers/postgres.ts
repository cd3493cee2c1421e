/**
 * A throwaway PostgreSQL cluster for a test: `initdb` into a temporary folder, `pg_ctl` on a free
 * loopback port (its Unix socket stays in the same folder), one database created; `stop()` ends
 * the server and removes the folder. Each call makes its own cluster, so test files running in
 * parallel never share one.
 *
 * The binaries are Debian's `postgresql` package (scripts/test-setup.sh installs it): found on
 * PATH, else in /usr/lib/postgresql/<version>/bin, where Debian keeps them. PostgreSQL refuses to
 * run as root, and CI runs as root: then the cluster runs as the unprivileged `postgres` user the
 * package creates (through `runuser`), and the folder is handed to that user.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PostgresCluster {
  /** `postgresql://postgres@127.0.0.1:<port>/<database>`, for `AGENT_SESSION_SERVICE_URI`. */
  readonly uri: string;
  readonly port: number;
  readonly database: string;
  /** Runs one SQL statement with `psql` (in `database`, or another of the cluster) and returns its rows, each a `|`-separated line. */
  query(sql: string, db?: string): Promise<string[]>;
  /** Stops the server and removes its folder; safe to call twice. */
  stop(): Promise<void>;
}

/** The folder holding `initdb`, `pg_ctl` and `psql`, or an error saying how to get them. */
export function postgresBinDir(): string {
  for (const dir of (process.env['PATH'] ?? '').split(':')) {
    // A symlink on PATH (as /usr/local/bin/initdb may be) points into the folder with psql too.
    if (dir && existsSync(join(dir, 'initdb'))) return dirname(realpathSync(join(dir, 'initdb')));
  }
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(debian, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] === undefined) {
    throw new Error('PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin): run `bash scripts/test-setup.sh`');
  }
  return join(debian, versions[0], 'bin');
}

/** As root, the user the cluster runs as: PostgreSQL will not run as root. */
function unprivilegedUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (line === undefined) throw new Error("running as root and there is no `postgres` user to run PostgreSQL as (Debian's postgresql package creates it)");
  const [, , uid, gid] = line.split(':');
  return { name: 'postgres', uid: Number(uid), gid: Number(gid) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startPostgres(database = 'agentgen_test'): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const user = unprivilegedUser();
  const dir = mkdtempSync(join(tmpdir(), 'agentgen-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const as = (command: string, args: string[]): [string, string[]] =>
    user ? ['runuser', ['-u', user.name, '--', join(bin, command), ...args]] : [join(bin, command), args];
  const exec = async (command: string, args: string[]): Promise<string> => {
    const [file, argv] = as(command, args);
    try {
      return (await run(file, argv, { cwd: dir, maxBuffer: 16 * 1024 * 1024 })).stdout;
    } catch (error) {
      const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
      throw new Error(`${command} failed: ${(stderr || stdout || (error as Error).message).trim()}`, { cause: error });
    }
  };
  const data = join(dir, 'data');
  let stopped = false;
  let started = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stopNow);
    if (started) await exec('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  // A test run killed before its teardown must not leave a server behind.
  const stopNow = (): void => {
    if (started && !stopped) {
      const [file, argv] = as('pg_ctl', ['stop', '-D', data, '-m', 'immediate']);
      try {
        execFileSync(file, argv, { stdio: 'ignore' });
      } catch {
        // Nothing more can be done while exiting.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', stopNow);
  try {
    // Trust on loopback only: the cluster lives for one test and listens on 127.0.0.1.
    await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    let port = 0;
    for (let attempt = 0; ; attempt++) {
      port = await freePort();
      // -F: no fsync (a throwaway cluster); the socket in our folder, not /var/run/postgresql.
      const options = `-h 127.0.0.1 -p ${port} -k ${dir} -F -c max_connections=200`;
      try {
        await exec('pg_ctl', ['start', '-D', data, '-w', '-t', '30', '-l', join(dir, 'server.log'), '-o', options]);
        started = true;
        break;
      } catch (error) {
        // Another process may have taken the port between our probe and the server's bind.
        if (attempt >= 3) {
          const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
          throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
        }
      }
    }
    const psql = (db: string, sql: string): Promise<string> =>
      exec('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-c', sql]);
    await psql('postgres', `CREATE DATABASE ${database}`);
    return {
      uri: `postgresql://postgres@127.0.0.1:${port}/${database}`,
      port,
      database,
      query: async (sql, db = database) => (await psql(db, sql)).split('\n').filter((line) => line !== ''),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
