/**
 * `agentgen dev --command`: starts the container as the platform would: `PORT` set to a free port,
 * plus the variables the platform injects (container-env.ts). Waits until it accepts connections,
 * and stops its whole process group on close (a shell command may have started children of its own).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';

export interface ContainerProcessOptions {
  readonly command: string;
  /** Set on top of dev's own environment, besides `PORT` (see container-env.ts). */
  readonly env: Readonly<Record<string, string>>;
  readonly logger: (line: string) => void;
  /** How its output lines are prefixed in the log: `container`, or `replica 2` among several. Default `container`. */
  readonly label?: string;
  readonly startTimeoutMs: number;
  /** Gives the start up (dev is shutting down): the process group is stopped and the start fails at once. */
  readonly signal?: AbortSignal;
}

export interface ContainerProcess {
  readonly url: string;
  readonly pid: number;
  close(): Promise<void>;
}

/**
 * The process groups of containers started and not yet stopped, so that a forced exit (a second
 * Ctrl-C while dev stops) leaves none running: each is detached in a group of its own, which the
 * terminal's Ctrl-C does not reach.
 */
const runningGroups = new Set<number>();

/** Kills every container's process group at once (SIGKILL), for an exit that cannot wait. */
export function killContainersNow(): void {
  for (const pid of runningGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  runningGroups.clear();
}

const keptOutputLines = 20;
const pollMs = 50;
const killGraceMs = 3_000;

/** A port nobody listens on right now (the OS picks it; the container binds it moments later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once the child's stdout and stderr have ended, or after `ms` (a grandchild may hold them open). */
function outputEnded(child: ChildProcess, ms: number): Promise<void> {
  const ended = [child.stdout, child.stderr].map((stream) =>
    stream === null || stream.readableEnded
      ? Promise.resolve()
      : new Promise<void>((resolve) => stream.once('end', () => resolve()).once('close', () => resolve())),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([Promise.all(ended).then(() => undefined), late]).finally(() => clearTimeout(timer));
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // the group: the shell and whatever it started
  } catch {
    child.kill(signal); // no group (already gone, or a platform without them)
  }
}

/**
 * Whether any process of the group still runs. On Linux, zombies do not count: an orphaned child
 * is reaped by PID 1, which in a container may take a second or more, yet it is already dead.
 */
function groupAlive(pgid: number): boolean {
  if (process.platform === 'win32') return false;
  if (process.platform === 'linux') {
    try {
      return readdirSync('/proc').some((entry) => {
        if (!/^\d+$/.test(entry)) return false;
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
          const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return group === String(pgid) && state !== 'Z' && state !== 'X';
        } catch {
          return false; // the process ended while we looked
        }
      });
    } catch {
      // No readable /proc: fall through to the signal probe.
    }
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the child exited and its group is empty; false on timeout. */
async function groupGone(child: ChildProcess, exited: Promise<void>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const childExited = await Promise.race([exited.then(() => true as const), timeout]);
  clearTimeout(timer);
  if (!childExited) return false;
  while (child.pid !== undefined && groupAlive(child.pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** The container exited because another process took its port between our probe and its bind. */
class PortTakenError extends Error {}

/** How many ports are tried when each in turn is taken before the container binds it. */
const portAttempts = 3;

export async function spawnContainer(options: ContainerProcessOptions): Promise<ContainerProcess> {
  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted === true)
      throw new Error(`The container command ${JSON.stringify(options.command)} was not started: agentgen dev is shutting down`);
    try {
      return await spawnOnPort(options, await freePort());
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= portAttempts) throw error;
      options.logger(`[${options.label ?? 'container'}] its port was taken before it could listen; starting it again on another`);
    }
  }
}

/** The container's output goes to the log, line by line; its last lines are kept, as they explain a failed start. */
function logOutput(child: ChildProcess, label: string, logger: (line: string) => void): readonly string[] {
  const tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (text: string) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        logger(`[${label}] ${line}`);
        tail.push(line);
        if (tail.length > keptOutputLines) tail.shift();
      }
    });
  }
  return tail;
}

/** How the process ended, once it has: its exit, or the error that kept it from starting. */
interface ProcessEnd {
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  spawnError: Error | undefined;
  /** Settles when the process has exited or could not start. */
  readonly exited: Promise<void>;
}

function watchEnd(child: ChildProcess): ProcessEnd {
  const end: { exit: ProcessEnd['exit']; spawnError: Error | undefined } = { exit: undefined, spawnError: undefined };
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      end.exit = { code, signal };
      resolve();
    });
    child.once('error', (error) => {
      end.spawnError = error;
      resolve();
    });
  });
  return Object.assign(end, { exited });
}

/** Stops the process's group: done only when the whole group is gone (the shell may exit before what it started). */
function stopper(child: ChildProcess, end: ProcessEnd, group: number | undefined): () => Promise<void> {
  return async () => {
    if (end.spawnError !== undefined || child.pid === undefined) return;
    if (end.exit === undefined || groupAlive(child.pid)) {
      signalGroup(child, 'SIGTERM');
      if (!(await groupGone(child, end.exited, killGraceMs))) {
        signalGroup(child, 'SIGKILL');
        await groupGone(child, end.exited, killGraceMs);
      }
    }
    if (group !== undefined) runningGroups.delete(group);
  };
}

/** The start failed because the process exited: its last lines say why (a taken port is told apart, to try another). */
async function exitedBeforeListening(
  options: ContainerProcessOptions,
  child: ChildProcess,
  end: ProcessEnd,
  tail: readonly string[],
  port: number,
): Promise<Error> {
  const exit = end.exit as NonNullable<ProcessEnd['exit']>;
  // Its last lines may still be in the pipes when 'exit' comes: they explain the failure.
  await outputEnded(child, 200);
  const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const output = tail.length > 0 ? `\nLast output:\n${tail.join('\n')}` : ' (no output)';
  const message = `The container command ${JSON.stringify(options.command)} ${how} before listening on PORT=${port}${output}`;
  return tail.some((line) => line.includes('EADDRINUSE')) ? new PortTakenError(message) : new Error(message);
}

/** Waits until the process accepts connections on `port`; throws when it exits, dev stops, or the start times out. */
async function waitListening(
  options: ContainerProcessOptions,
  child: ChildProcess,
  end: ProcessEnd,
  tail: readonly string[],
  port: number,
  stop: () => Promise<void>,
) {
  const deadline = Date.now() + options.startTimeoutMs;
  for (;;) {
    if (end.spawnError !== undefined) throw new Error(`Could not start the container command ${JSON.stringify(options.command)}: ${end.spawnError.message}`);
    if (end.exit !== undefined) throw await exitedBeforeListening(options, child, end, tail, port);
    if (await accepts(port)) return;
    if (options.signal?.aborted === true) {
      // dev is stopping: waiting out startTimeoutMs (30 s by default) would hold its shutdown that long.
      await stop();
      throw new Error(`The container command ${JSON.stringify(options.command)} was stopped before it listened: agentgen dev is shutting down`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The container command ${JSON.stringify(options.command)} did not accept connections on PORT=${port} within ${options.startTimeoutMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

async function spawnOnPort(options: ContainerProcessOptions, port: number): Promise<ContainerProcess> {
  const label = options.label ?? 'container';
  const child = spawn(options.command, {
    shell: true,
    detached: process.platform !== 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...options.env,
      PORT: String(port),
    },
  });
  const group = process.platform !== 'win32' ? child.pid : undefined;
  if (group !== undefined) runningGroups.add(group);
  const tail = logOutput(child, label, options.logger);
  const end = watchEnd(child);
  const stop = stopper(child, end, group);
  await waitListening(options, child, end, tail, port, stop);
  options.logger(`[${label}] started (pid ${child.pid}) on PORT=${port}`);
  void end.exited.then(() => {
    if (end.exit !== undefined) options.logger(`[${label}] exited (${end.exit.signal ?? `code ${end.exit.code}`})`);
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, close: stop };
}
