// Core pinning for the server benchmarks.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Pins a process (all its threads) to one CPU when `taskset` exists and the machine has two or
 * more: servers on CPU 1, the load client on CPU 0, so neither migrates onto the other's core
 * between rounds (measured: unpinned runs swung by +-20% from one run to the next).
 * BENCH_PIN=0 turns it off.
 */
export function pin(pid, cpu) {
  if (process.env.BENCH_PIN === '0' || availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
