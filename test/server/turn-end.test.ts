/**
 * The end of a turn of the event loop (runtime/src/server/turn-end.ts): the first answer of a turn
 * ends at once, with the lines queued by then written right after it; the ones after it in the
 * same turn end together at its end, and there the held answers end first and the turn's lines
 * are written right after them, in one write. After a turn of several answers, an answer that logs
 * is held even when first. log-lines.test.ts checks the same order from outside, in a real
 * container process.
 */
import { describe, expect, it } from 'vitest';
import { type HeldAnswer, TurnEnd } from '../../runtime/src/server/turn-end.js';

/** A turn end whose writes, and the answers' ends, are recorded in one list, in order. */
function recorded(): { turn: TurnEnd; seen: string[]; answer: (name: string, line?: string) => HeldAnswer } {
  const seen: string[] = [];
  const turn = new TurnEnd((text) => seen.push(`write ${JSON.stringify(text)}`));
  // With `line`, the answer logs it as it ends, as a Reply does.
  const answer = (name: string, line?: string): HeldAnswer => ({
    logs: line !== undefined,
    endNow: () => {
      seen.push(`end ${name}`);
      if (line !== undefined) turn.line(line);
    },
  });
  return { turn, seen, answer };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TurnEnd', () => {
  it('ends the first answer of a turn at once and holds the others to its end, in order', async () => {
    const { turn, seen, answer } = recorded();
    turn.end(answer('a'));
    expect(seen).toEqual(['end a']);
    turn.end(answer('b'));
    turn.end(answer('c'));
    expect(seen).toEqual(['end a']);
    await nextTurn();
    expect(seen).toEqual(['end a', 'end b', 'end c']);
    // A new turn: its first answer ends at once again.
    turn.end(answer('d'));
    expect(seen).toEqual(['end a', 'end b', 'end c', 'end d']);
  });

  it('writes the lines queued before the first answer and the one it logs right after it ends, in one write', () => {
    const { turn, seen, answer } = recorded();
    turn.line('{"n":1}\n');
    expect(seen).toEqual([]);
    turn.end(answer('a', '{"a":1}\n'));
    expect(seen).toEqual(['end a', `write ${JSON.stringify('{"n":1}\n{"a":1}\n')}`]);
    expect(turn.pending).toBe(false);
  });

  it('ends the held answers, then writes the lines they log, in one write', async () => {
    const { turn, seen, answer } = recorded();
    turn.end(answer('a', '{"a":1}\n'));
    turn.end(answer('b', '{"b":1}\n'));
    turn.line('{"n":1}\n');
    turn.end(answer('c', '{"c":1}\n'));
    expect(seen).toEqual(['end a', `write ${JSON.stringify('{"a":1}\n')}`]);
    await nextTurn();
    expect(seen.slice(2)).toEqual(['end b', 'end c', `write ${JSON.stringify('{"n":1}\n{"b":1}\n{"c":1}\n')}`]);
  });

  it('holds a logging answer first in its turn after a turn of several answers, and ends it at once again after a turn of one', async () => {
    const { turn, seen, answer } = recorded();
    turn.end(answer('a', '{"a":1}\n'));
    turn.end(answer('b', '{"b":1}\n'));
    await nextTurn();
    seen.length = 0;
    // The turn before had two answers: the logging one waits, one that logs nothing does not.
    turn.end(answer('c', '{"c":1}\n'));
    expect(seen).toEqual([]);
    turn.end(answer('d'));
    expect(seen).toEqual([]);
    await nextTurn();
    expect(seen).toEqual(['end c', 'end d', `write ${JSON.stringify('{"c":1}\n')}`]);
    seen.length = 0;
    turn.end(answer('e'));
    expect(seen).toEqual(['end e']);
    await nextTurn();
    // A turn of one answer: the next turn's first ends at once with its line.
    turn.end(answer('f', '{"f":1}\n'));
    expect(seen).toEqual(['end e', 'end f', `write ${JSON.stringify('{"f":1}\n')}`]);
  });

  it('ends what is held and writes what is queued at once on flush, and nothing again at the turn end', async () => {
    const { turn, seen, answer } = recorded();
    turn.end(answer('a'));
    turn.end(answer('b'));
    turn.line('{"n":1}\n');
    turn.flush();
    expect(seen).toEqual(['end a', 'end b', `write ${JSON.stringify('{"n":1}\n')}`]);
    await nextTurn();
    expect(seen).toHaveLength(3);
  });

  it('ends every held answer and writes the lines when one answer throws, and survives a failed write', async () => {
    const { turn, seen, answer } = recorded();
    const broken: HeldAnswer = {
      logs: false,
      endNow: () => {
        seen.push('end broken');
        throw new Error('socket gone');
      },
    };
    // First in its turn: the throw reaches the caller, the lines queued are written all the same.
    turn.line('{"n":1}\n');
    expect(() => turn.end(broken)).toThrow('socket gone');
    expect(seen).toEqual(['end broken', `write ${JSON.stringify('{"n":1}\n')}`]);
    // Held: the others still end, and the lines are written.
    turn.end(broken);
    turn.end(answer('b', '{"b":1}\n'));
    await nextTurn();
    expect(seen.slice(2)).toEqual(['end broken', 'end b', `write ${JSON.stringify('{"b":1}\n')}`]);

    const failing = new TurnEnd(() => {
      throw new Error('EPIPE');
    });
    failing.line('{"n":2}\n');
    expect(() => failing.flush()).not.toThrow();
    expect(failing.pending).toBe(false);
  });
});
