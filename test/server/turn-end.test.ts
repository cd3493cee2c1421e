/**
 * The end of a turn of the event loop (runtime/src/server/turn-end.ts): the first answer of a turn
 * ends at once, the ones after it in the same turn end together at its end, an answer whose call
 * logged a line waits for the turn's end too, and there the held answers end first and the
 * turn's lines are written right after them, in one write. log-lines.test.ts checks the same
 * order from outside, in a real container process.
 */
import { describe, expect, it } from 'vitest';
import { TurnEnd } from '../../runtime/src/server/turn-end.js';

/** A turn end whose writes, and the answers' ends, are recorded in one list, in order. */
function recorded(): { turn: TurnEnd; seen: string[]; answer: (name: string, onEnd?: () => void) => { endNow(): void } } {
  const seen: string[] = [];
  const turn = new TurnEnd((text) => seen.push(`write ${JSON.stringify(text)}`));
  const answer = (name: string, onEnd?: () => void) => ({
    endNow: () => {
      seen.push(`end ${name}`);
      onEnd?.();
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

  it('holds an answer whose line is queued, then ends the answers and writes the lines in one write', async () => {
    const { turn, seen, answer } = recorded();
    turn.line('{"n":1}\n');
    turn.end(answer('a'));
    turn.line('{"n":2}\n');
    turn.end(answer('b'));
    expect(turn.pending).toBe(true);
    expect(seen).toEqual([]);
    await nextTurn();
    expect(seen).toEqual(['end a', 'end b', `write ${JSON.stringify('{"n":1}\n{"n":2}\n')}`]);
    expect(turn.pending).toBe(false);
  });

  it('writes a line that an answer logs as it ends in the same write', async () => {
    const { turn, seen, answer } = recorded();
    turn.line('{"n":1}\n');
    turn.end(answer('a', () => turn.line('{"late":true}\n')));
    await nextTurn();
    expect(seen).toEqual(['end a', `write ${JSON.stringify('{"n":1}\n{"late":true}\n')}`]);
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
    turn.line('{"n":1}\n');
    turn.end({
      endNow: () => {
        seen.push('end broken');
        throw new Error('socket gone');
      },
    });
    turn.end(answer('b'));
    await nextTurn();
    expect(seen).toEqual(['end broken', 'end b', `write ${JSON.stringify('{"n":1}\n')}`]);

    const failing = new TurnEnd(() => {
      throw new Error('EPIPE');
    });
    failing.line('{"n":2}\n');
    expect(() => failing.flush()).not.toThrow();
    expect(failing.pending).toBe(false);
  });
});
