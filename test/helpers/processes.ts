/** Whether a process is running: not merely a zombie waiting for PID 1 to reap it (Linux's /proc). */
import { readFileSync } from 'node:fs';

export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}
