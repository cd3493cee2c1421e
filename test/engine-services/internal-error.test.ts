/**
 * What dev's engine services and control plane answer for an error no check foresaw (a bug, not a
 * client's mistake): 500 INTERNAL with an error id only, the thrown message (which may quote the
 * caller's data, as Node's own messages do) in dev's log under that id, escaped.
 */
import { describe, expect, it } from 'vitest';
import { internalError } from '../../emulator/google-api/unforeseen-error.js';

describe('internalError', () => {
  it('answers an error id and nothing of the message, and logs the message escaped under that id', () => {
    const lines: string[] = [];
    const error = internalError(new TypeError('cannot read "secret-value\u001b[2J"'), "agentgen dev's engine services", (line) => lines.push(line));
    expect(error).toMatchObject({ status: 'INTERNAL', http: 500 });
    expect(error.message).toMatch(/^agentgen dev's engine services failed \(error id [0-9a-f]{8}\); dev's log says what failed\.$/);
    const id = /error id ([0-9a-f]{8})/.exec(error.message)?.[1];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^agentgen dev's engine services failed \\(error id ${id}\\): "TypeError: cannot read \\\\"secret-value\\\\u001b\\[2J\\\\"`),
    );
    expect(lines[0]).not.toContain('\u001b');
  });

  it('two failures get two ids', () => {
    const ids = [1, 2].map(() => /error id (\w+)/.exec(internalError('x', 'dev', () => {}).message)?.[1]);
    expect(ids[0]).not.toBe(ids[1]);
  });
});
