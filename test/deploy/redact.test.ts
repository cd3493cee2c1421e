/**
 * The redaction step of `deploy` and `breaking --deployed` (generator/deploy/redact.ts) and the
 * check every access token passes before a request (generator/deploy/access-token.ts): which text
 * is hidden and which is left alone, and which tokens are refused, with a message that never holds
 * the value.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkedToken } from '../../cli/src/deploy/access-token.js';
import { Redactor } from '../../cli/src/deploy/redact.js';

/** A token as `checkedToken` accepts it: RFC 6750's b64token, at least 8 characters. */
const bearerTokenArbitrary = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{8,40}=*$/);

function redactorHiding(...values: string[]): Redactor {
  const redactor = new Redactor();
  for (const value of values) redactor.hide(value);
  return redactor;
}

describe('Redactor', () => {
  test('hides a hidden value wherever it appears, and each line and word of a value that holds line breaks', () => {
    const redactor = redactorHiding('opaque-token-0123', 'first-line-of-it\r\nsecond-line\tthird-word');
    expect(redactor.redact('a opaque-token-0123 b (opaque-token-0123)')).toBe('a [redacted] b ([redacted])');
    expect(redactor.redact('x first-line-of-it\r\nsecond-line\tthird-word y')).toBe('x [redacted] y');
    expect(redactor.redact('second-line alone; third-word alone; first-line-of-it alone')).toBe('[redacted] alone; [redacted] alone; [redacted] alone');
  });

  test('hides token shapes whatever supplied them: Bearer in any case, ya29. tokens, JWTs', () => {
    const redactor = new Redactor();
    expect(redactor.redact('Authorization: Bearer abc.DEF-ghi_jkl~mno+pqr/st==, next')).toBe('Authorization: Bearer [redacted], next');
    expect(redactor.redact('authorization: bearer x')).toBe('authorization: bearer [redacted]');
    expect(redactor.redact('token ya29.a0AfB_byC-9xyz/12+3= expired')).toBe('token [redacted] expired');
    expect(redactor.redact('id_token=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl;')).toBe('id_token=[redacted];');
    expect(redactor.redact('unsigned eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.')).toBe('unsigned [redacted]');
  });

  test('leaves what deploy prints on success alone: a curl that runs gcloud, hostnames, resource and type names, short values', () => {
    const redactor = redactorHiding('1', 'v1');
    const text = [
      'created projects/my-project/locations/us-central1/reasoningEngines/1000 (updateMask: spec.containerSpec.imageUri)',
      'curl -sS -X POST -H "Authorization: Bearer $(gcloud auth print-access-token)" \\',
      "  'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l/reasoningEngines/1:query'",
      'type.googleapis.com/google.cloud.aiplatform.v1.ReasoningEngine',
    ].join('\n');
    expect(redactor.redact(text)).toBe(text);
  });

  test("the message of fetch's own invalid-header error, which quotes the header, comes out without the token", () => {
    for (const token of ['ya29.first-part\nY', 'opaque-first-part\r\nopaque-second-part']) {
      let message = '';
      try {
        new Headers().append('authorization', `Bearer ${token}`);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(token);
      const redacted = redactorHiding(token).redact(message);
      expect(redacted).toMatch(/is an invalid header value/);
      for (const part of [token, ...token.split(/\s+/).filter((p) => p.length >= 8)]) expect(redacted).not.toContain(part);
    }
  });

  test('property: a hidden token never survives, however often and wherever it appears', () => {
    fc.assert(
      fc.property(bearerTokenArbitrary, fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { minLength: 2, maxLength: 6 }), (token, around) => {
        expect(redactorHiding(token).redact(around.join(token))).not.toContain(token);
      }),
    );
  });
});

describe('checkedToken', () => {
  const origin = '--access-token-env ACCESS_TOKEN';

  test('a trailing line ending (LF, CRLF) is removed: a token file written by `gcloud auth print-access-token > f` works', () => {
    expect(checkedToken('ya29.abc-DEF_123\n', origin)).toBe('ya29.abc-DEF_123');
    expect(checkedToken('ya29.abc-DEF_123\r\n', origin)).toBe('ya29.abc-DEF_123');
    expect(checkedToken('abc+/DEF123==', origin)).toBe('abc+/DEF123==');
  });

  test.each([
    ['a line break inside', 'ya29.secret-one\nsecret-two', 'holds a control character (CR, LF, NUL, …) inside it'],
    ['a CR inside', 'ya29.secret-one\rsecret-two', 'holds a control character (CR, LF, NUL, …) inside it'],
    ['a NUL', 'ya29.secret-one\0', 'holds a control character (CR, LF, NUL, …) inside it'],
    ['a DEL', 'ya29.secret-one\x7f', 'holds a control character (CR, LF, NUL, …) inside it'],
    ['a tab', 'ya29.secret-one\tsecret-two', 'holds a control character (CR, LF, NUL, …) inside it'],
    ['a space', 'ya29.secret-one secret-two', 'holds whitespace'],
    ['a trailing space', 'ya29.secret-one ', 'holds whitespace'],
    ['a no-break space', 'ya29.secret-one\u00a0', 'holds whitespace'],
    ['a quote', 'ya29.secret-"one"', 'holds a character a bearer token cannot (RFC 6750: letters, digits, -._~+/ and = at the end)'],
    ['= inside', 'secret=one-two', 'holds a character a bearer token cannot (RFC 6750: letters, digits, -._~+/ and = at the end)'],
    ['only a line ending', '\r\n', 'is empty but for a line ending'],
    ['too short', 'ya29.x\n', 'is shorter than 8 characters'],
  ])('%s: refused, naming the variable and never the value', (_name, value, problem) => {
    expect(() => checkedToken(value, origin)).toThrow(
      `--access-token-env ACCESS_TOKEN: the access token ${problem}; refused before any request (the value is not shown)`,
    );
  });

  test('property: a refused value gets one of five fixed messages: what is wrong, nothing of the value', () => {
    const messages = new Set<string>();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.tuple(bearerTokenArbitrary, fc.string({ unit: 'binary' })).map(([a, b]) => a + b),
        ),
        (value) => {
          try {
            checkedToken(value, origin);
          } catch (error) {
            messages.add((error as Error).message);
          }
        },
      ),
      { numRuns: 1000 },
    );
    expect(messages.size).toBeGreaterThan(1);
    expect(messages.size).toBeLessThanOrEqual(5);
    for (const message of messages)
      expect(message).toMatch(/^--access-token-env ACCESS_TOKEN: the access token (is|holds) [^;]+; refused before any request \(the value is not shown\)$/);
  });
});
