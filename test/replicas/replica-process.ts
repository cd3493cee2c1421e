/**
 * One replica of the example container: the bundled examples/weather-agent main.ts as a child
 * process on a fixed loopback port (so a replica killed with SIGKILL can come back on the same
 * port, as a restarted instance behind the same address), with the offline model and the
 * environment given. Every wait is bounded; `stop()` leaves no process behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface ReplicaOptions {
  /** The bundled main (see bundle.ts). */
  readonly main: string;
  readonly port: number;
  /** Added to the environment: e.g. `AGENT_SESSION_SERVICE_URI`. */
  readonly env?: Readonly<Record<string, string>>;
  readonly readyMs?: number;
}

export interface Replica {
  readonly url: string;
  readonly port: number;
  /** The running process, replaced by `restart()`. */
  readonly child: ChildProcess;
  /** Everything the processes of this replica wrote to stderr. */
  readonly stderr: () => string;
  /** Resolves with the exit code (or signal) of the current process. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  kill(signal: NodeJS.Signals): Promise<number | NodeJS.Signals | null>;
  /** Starts the container again on the same port (after a kill). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startReplica(options: ReplicaOptions): Promise<Replica> {
  let stderr = '';
  let child!: ChildProcess;
  let exited!: Promise<number | NodeJS.Signals | null>;
  const launch = (): Promise<void> => {
    child = spawn(process.execPath, [options.main], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(options.port),
        AGENT_MODEL: 'offline',
        AGENT_LOG_FORMAT: 'off',
        NODE_ENV: 'production',
        ...options.env,
      },
    });
    const current = child;
    exited = new Promise((resolve) => current.once('exit', (code, signal) => resolve(code ?? signal)));
    const readyMs = options.readyMs ?? 20_000;
    return new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`replica on port ${options.port} did not listen within ${readyMs} ms: ${stderr.slice(-2000)}`)), readyMs);
      current.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      current.stdout?.setEncoding('utf8').on('data', (text: string) => {
        out += text;
        if (/listening on \S+:\d+/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`replica on port ${options.port} exited (${String(code)}) before listening: ${stderr.slice(-2000)}`));
      });
    });
  };
  await launch();
  const replica: Replica = {
    url: `http://127.0.0.1:${options.port}`,
    port: options.port,
    get child() {
      return child;
    },
    stderr: () => stderr,
    get exited() {
      return exited;
    },
    kill: (signal) => {
      child.kill(signal);
      return exited;
    },
    restart: launch,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return replica;
}

/**
 * A replica on a port free when probed. Another process may take that port before the replica's
 * bind (parallel test files keep opening loopback connections): the replica then exits with
 * EADDRINUSE, and it is started again on a new port.
 */
export async function startReplicaOnFreePort(options: Omit<ReplicaOptions, 'port'>): Promise<Replica> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startReplica({ ...options, port: await freePort() });
    } catch (error) {
      if (attempt >= 4 || !/EADDRINUSE/.test((error as Error).message)) throw error;
    }
  }
}
