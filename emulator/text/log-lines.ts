/**
 * The emulator's log, one line per call: lines are written together, at most `batchMs` after the
 * first of them was logged, so a busy emulator makes one write for many calls instead of one each
 * (on a terminal a write per line was over a quarter of the emulator's time per call; one write
 * per turn of the event loop still cost a few percent of it at 16 connections). A person reading
 * the log cannot tell 10 ms; whatever else is written flushes the queue first (`flush`).
 */
export interface LineLog {
  /** Queues one line (without its newline). */
  line(text: string): void;
  /** Writes what is queued now; before anything else is written, and before exit. */
  flush(): void;
}

/** How long a line may wait for others to share its write. */
export const batchMs = 10;

export function batchedLines(write: (text: string) => void): LineLog {
  let queued: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (queued.length === 0) return;
    const text = `${queued.join('\n')}\n`;
    queued = [];
    write(text);
  };
  return {
    line(text) {
      queued.push(text);
      timer ??= setTimeout(flush, batchMs);
    },
    flush,
  };
}
