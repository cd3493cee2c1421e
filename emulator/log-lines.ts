/**
 * The emulator's log, one line per call: lines logged in the same turn of the event loop are
 * written together, so a busy emulator makes one write for many calls instead of one each (on a
 * terminal a write per line was over a quarter of the emulator's time per call).
 */
export interface LineLog {
  /** Queues one line (without its newline). */
  line(text: string): void;
  /** Writes what is queued now; before anything else is written, and before exit. */
  flush(): void;
}

export function batchedLines(write: (text: string) => void): LineLog {
  let queued: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (queued.length === 0) return;
    const text = `${queued.join('\n')}\n`;
    queued = [];
    write(text);
  };
  return {
    line(text) {
      queued.push(text);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
