/**
 * The dev console's server side through `agentgen dev` (runDev) on loopback: the page and its
 * assets with their content types, the Content-Security-Policy and the other headers, HEAD, 404
 * for unknown console paths, the API's own 404 for any other path, the token handed to loopback
 * callers only, `--no-console`, and the built assets being those of the current page sources.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevArgs, runDev } from '../../cli/src/dev-command.js';
import { consoleCsp, createConsoleHandler, isLoopbackHost } from '../../emulator/console/serve.js';

const repo = join(import.meta.dirname, '..', '..');
const assetsDir = join(repo, 'emulator', 'console', 'assets');
const resource = 'projects/p/locations/l/reasoningEngines/9';

interface Dev {
  readonly url: string;
  stop(): Promise<void>;
}

/** `agentgen dev` in front of a container that is never called (only pages and refusals are asked for). */
async function dev(extra: Partial<DevArgs>): Promise<Dev> {
  const stop = new AbortController();
  let output = '';
  let seen: (url: string) => void = () => {};
  const ready = new Promise<string>((resolve) => (seen = resolve));
  const done = runDev(
    { container: 'http://127.0.0.1:9', port: 0, host: '127.0.0.1', resource, 'string-body': true, ...extra },
    {
      cwd: repo,
      stdout: (text) => {
        output += text;
        const match = /POST (http:\/\/127\.0\.0\.1:\d+)\/v1\//.exec(output);
        if (match !== null && output.includes('try: curl')) seen(match[1]!);
      },
      stderr: (text) => (output += text),
    },
    async () => [{ name: 'async_stream_query', api_mode: 'async_stream' }],
    stop.signal,
  );
  const url = await Promise.race([ready, done.then((code) => Promise.reject(new Error(`agentgen dev exited ${code}: ${output}`)))]);
  return {
    url,
    stop: async () => {
      stop.abort();
      await done;
    },
    get banner() {
      return output;
    },
  } as Dev;
}

/** The page's settings as the server wrote them into its `<meta>`. */
function configOf(html: string): { resource: string; token: string | null } {
  const content = /<meta name="agentgen-console" content="([^"]*)"\s*\/?>/.exec(html)?.[1];
  if (content === undefined) throw new Error(`no agentgen-console meta in ${html.slice(0, 300)}`);
  return JSON.parse(content.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))));
}

let open: Dev;
let withToken: Dev;
let off: Dev;

beforeAll(async () => {
  [open, withToken, off] = await Promise.all([dev({}), dev({ token: 'sekrit"<en>$&' }), dev({ console: false })]);
});

afterAll(async () => {
  await Promise.all([open?.stop(), withToken?.stop(), off?.stop()]);
});

const pageHeaders = {
  'content-security-policy': consoleCsp,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

describe('the dev console served by agentgen dev', () => {
  it('is on by default on loopback and named in the banner', () => {
    expect((open as Dev & { banner: string }).banner).toContain(`console: ${open.url}/`);
    expect((off as Dev & { banner: string }).banner).not.toContain('console:');
  });

  it('serves the page at / with a strict CSP, no caching, and the resource in its settings', async () => {
    const res = await fetch(`${open.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    for (const [name, value] of Object.entries(pageHeaders)) expect([name, res.headers.get(name)]).toEqual([name, value]);
    expect(consoleCsp).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self';/);
    const html = await res.text();
    // Any bearer token is accepted without --token: the page sends `local`.
    expect(configOf(html)).toEqual({ resource, token: 'local' });
    // Nothing inline for the CSP to refuse, nothing from elsewhere.
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]|<style|\sstyle=|\son\w+=/i);
    expect(html.match(/(?:src|href)="([^"]+)"/g)).toEqual(['href="/console/icon.svg"', 'href="/console/app.css"', 'src="/console/app.js"']);
  });

  it('serves each asset with its content type, the bytes the build wrote', async () => {
    const types = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8', 'icon.svg': 'image/svg+xml' };
    for (const [file, type] of Object.entries(types)) {
      const res = await fetch(`${open.url}/console/${file}`);
      expect([file, res.status, res.headers.get('content-type')]).toEqual([file, 200, type]);
      expect(res.headers.get('content-security-policy')).toBe(consoleCsp);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(assetsDir, file)))).toBe(true);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await fetch(`${open.url}/console/app.js`);
    const head = await fetch(`${open.url}/console/app.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(await head.text()).toBe('');
    await get.arrayBuffer();
  });

  it('answers 404 for an unknown console file, and leaves other paths to the API', async () => {
    const missing = await fetch(`${open.url}/console/nothing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await missing.text()).toBe('No such file in the dev console: /console/nothing.js\n');
    const other = await fetch(`${open.url}/favicon.ico`, { headers: { authorization: 'Bearer x' } });
    expect(other.status).toBe(404);
    expect((await other.json()) as unknown).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    // The hook sees GET and HEAD only: a POST to / is the API's (a bearer token, then no such path).
    const post = await fetch(`${open.url}/`, { method: 'POST', headers: { authorization: 'Bearer x' }, body: '{}' });
    expect(post.status).toBe(404);
    expect((await post.json()) as unknown).toMatchObject({ error: { status: 'NOT_FOUND' } });
  });

  it('gives no CORS grant for the page, even to a loopback origin', async () => {
    const res = await fetch(`${open.url}/`, { headers: { origin: 'http://localhost:5173' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    await res.text();
  });

  it('with --token, writes the token into the page for a loopback caller opening it directly, and only then', async () => {
    const direct = configOf(await (await fetch(`${withToken.url}/`, { headers: { 'sec-fetch-site': 'none' } })).text());
    expect(direct).toEqual({ resource, token: 'sekrit"<en>$&' });
    expect(configOf(await (await fetch(`${withToken.url}/`)).text()).token).toBe('sekrit"<en>$&');
    for (const site of ['cross-site', 'same-site']) {
      const html = await (await fetch(`${withToken.url}/`, { headers: { 'sec-fetch-site': site } })).text();
      expect([site, configOf(html).token]).toEqual([site, null]);
      expect(html).not.toContain('sekrit');
    }
  });

  it('is off with --no-console: / is the API 404', async () => {
    const res = await fetch(`${off.url}/`, { headers: { authorization: 'Bearer x' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-security-policy')).toBeNull();
    await res.text();
  });

  it('is on by default only when --host is a loopback name or address', () => {
    expect(['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]', 'LOCALHOST'].filter((host) => !isLoopbackHost(host))).toEqual([]);
    expect(['0.0.0.0', '::', '192.168.1.2', 'devbox.lan', '128.0.0.1'].filter((host) => isLoopbackHost(host))).toEqual([]);
  });
});

describe('the console handler on its own', () => {
  let server: Server | undefined;
  afterAll(() => new Promise<void>((done) => (server === undefined ? done() : server.close(() => done()))));

  it('refuses other methods on its paths (405, Allow), and names the build when the assets are missing', async () => {
    const built = createConsoleHandler({ resource });
    const unbuilt = createConsoleHandler({ resource, assetsDir: join(tmpdir(), 'agentgen-no-such-assets') });
    server = createServer((req, res) => {
      const handler = req.headers['x-unbuilt'] === undefined ? built : unbuilt;
      if (!handler(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const put = await fetch(`${base}/console/app.js`, { method: 'PUT', body: 'x' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    await put.text();
    expect((await fetch(`${base}/v2/other`)).status).toBe(418);
    const missing = await fetch(`${base}/`, { headers: { 'x-unbuilt': '1' } });
    expect(missing.status).toBe(500);
    expect(await missing.text()).toMatch(/dev console's page is not built .*run `npm run build`/);
  });
});

describe('the built page', () => {
  it('is the build of the current sources (run `npm run build` after changing emulator/console/page/)', () => {
    const fresh = mkdtempSync(join(tmpdir(), 'agentgen-console-'));
    try {
      execFileSync(process.execPath, [join(repo, 'scripts', 'build-console-page.mjs'), '--out', fresh], { stdio: 'pipe' });
      const files = readdirSync(fresh).sort();
      expect(files).toEqual(['app.css', 'app.js', 'icon.svg', 'index.html']);
      for (const file of files) expect([file, readFileSync(join(fresh, file)).equals(readFileSync(join(assetsDir, file)))]).toEqual([file, true]);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
