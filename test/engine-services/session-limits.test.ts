/**
 * A session of dev's Sessions service stays readable whatever it was sent (issue 44, item 3):
 * after 38 events of 15 MiB, listing its events was a 500 (a page of 100 such events passes V8's
 * longest string) and an agent could no longer read its own session. Now a session holds at most
 * 256 MiB and 10,000 events (appendEvent past either is 429 RESOURCE_EXHAUSTED, the session left as
 * it was), and a page ends before 32 MiB of JSON (`nextPageToken` goes on): every event of a full
 * session is read back, page by page.
 */
import { describe, expect, it } from 'vitest';
import { devWithoutContainer } from '../helpers/dev-without-container.js';

const resource = 'projects/p1/locations/europe-west4/reasoningEngines/7';
const base = `/v1beta1/${resource}`;
const dev = devWithoutContainer({ resource });

async function call(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${dev().url}${path}`, {
    method,
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.status, text: await response.text() };
}

const event = (text: string, second = 0): string =>
  JSON.stringify({ author: 'user', invocationId: 'i', timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(), content: { parts: [{ text }] } });

/** Every event of the session, following nextPageToken; the byte length of each page too. */
async function readAll(session: string): Promise<{ events: Array<{ content: { parts: Array<{ text: string }> } }>; pages: number[] }> {
  const events: Array<{ content: { parts: Array<{ text: string }> } }> = [];
  const pages: number[] = [];
  let token: string | undefined;
  do {
    const answer = await call('GET', `${base}/sessions/${session}/events?pageSize=1000${token === undefined ? '' : `&pageToken=${token}`}`);
    expect(answer.status).toBe(200);
    pages.push(answer.text.length);
    const page = JSON.parse(answer.text) as { sessionEvents: typeof events; nextPageToken?: string };
    events.push(...page.sessionEvents);
    token = page.nextPageToken;
  } while (token !== undefined);
  return { events, pages };
}

describe('a session past its limits stays readable', () => {
  it('takes 15 MiB events up to 256 MiB, refuses the next, and reads them all back in pages under 32 MiB', async () => {
    expect((await call('POST', `${base}/sessions?sessionId=big`, JSON.stringify({ userId: 'u' }))).status).toBe(200);
    const text = 'x'.repeat(15 * 1024 * 1024);
    let accepted = 0;
    let refused: { status: number; text: string } | undefined;
    for (let i = 0; i < 38 && refused === undefined; i++) {
      const answer = await call('POST', `${base}/sessions/big:appendEvent`, event(`${i} ${text}`, i));
      if (answer.status === 200) accepted++;
      else refused = answer;
    }
    expect(accepted).toBe(17);
    expect(refused?.status).toBe(429);
    expect(JSON.parse(refused?.text ?? '{}')).toMatchObject({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: expect.stringMatching(/^A session holds at most 268435456 bytes of events/) },
    });

    const { events, pages } = await readAll('big');
    expect(events.map((one) => one.content.parts[0]?.text.split(' ', 1)[0])).toEqual(Array.from({ length: 17 }, (_, i) => String(i)));
    expect(pages.length).toBe(9); // two events a page (30 MiB), the last one alone
    for (const size of pages) expect(size).toBeLessThan(32 * 1024 * 1024);
    expect((await call('GET', `${base}/sessions/big`)).status).toBe(200);
    expect((await call('DELETE', `${base}/sessions/big`)).status).toBe(200);
  });

  it('takes 10,000 events, refuses the 10,001st, and lists them all', async () => {
    expect((await call('POST', `${base}/sessions?sessionId=long`, JSON.stringify({ userId: 'u' }))).status).toBe(200);
    for (let start = 0; start < 10_000; start += 100) {
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => call('POST', `${base}/sessions/long:appendEvent`, event(`e${start + i}`))));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
    }
    const refused = await call('POST', `${base}/sessions/long:appendEvent`, event('one too many'));
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).error.message).toMatch(/^A session holds at most 10000 events in agentgen dev/);
    const { events, pages } = await readAll('long');
    expect(events).toHaveLength(10_000);
    expect(pages).toHaveLength(10); // pageSize 1000, the platform's maximum for events
  });
});
