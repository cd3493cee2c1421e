/**
 * The dev console's server side: the page `agentgen dev` serves at `/` and its assets under
 * `/console/`. It is a page handler for the emulator (GET and HEAD outside `/v1/`): it answers
 * its own paths and returns false for any other, which then gets the API's 404. It never touches
 * the API's call path; the page calls the public endpoints like any other client.
 *
 * The assets are built from emulator/console/page/ by scripts/build-console-page.mjs (on
 * `npm run build`) into `assets/` beside this module, in the source tree and in the cli package.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Answers a request it owns (true), or leaves it to the API's 404 (false). `url`: the request's, as the emulator parsed it. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse, url?: URL) => boolean;

export interface ConsoleOptions {
  /** The one resource the emulator serves, e.g. `projects/local/locations/local/reasoningEngines/1`. */
  readonly resource: string;
  /**
   * The emulator's `--token`. Unset: any bearer token is accepted, so the page sends `local`.
   * Set: it is written into the page for loopback callers only (see `tokenFor`).
   */
  readonly token?: string;
  /** The A2A face's mount in the container (the spec's `a2a.mount`): the page shows its card and sends it messages. */
  readonly a2aMount?: string;
  /** Where the built assets are. Default: `assets/` beside this module. */
  readonly assetsDir?: string;
}

/**
 * Nothing from elsewhere, nothing inline: the page's one script and one stylesheet come from this
 * origin, and it talks to this origin only. It cannot be framed (clickjacking), and forms and
 * `<base>` are off since the page uses neither.
 */
export const consoleCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

/** The files the build writes, by the path they are served at. `/` is the page itself. */
const assetFiles: ReadonlyArray<readonly [path: string, file: string, type: string]> = [
  ['/', 'index.html', 'text/html; charset=utf-8'],
  ['/console/app.js', 'app.js', 'text/javascript; charset=utf-8'],
  ['/console/app.css', 'app.css', 'text/css; charset=utf-8'],
  ['/console/icon.svg', 'icon.svg', 'image/svg+xml'],
];

/** Where the page's settings go in index.html: a `<meta content>` value, HTML-escaped. */
const configMarker = '__AGENTGEN_CONSOLE_CONFIG__';

function escapeAttribute(text: string): string {
  return text.replace(/[&"'<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const loopbackAddress = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * The token to write into the page, or undefined when the page must ask for it. Without `--token`
 * there is no secret (any bearer is accepted). With one, it goes only to a caller on this machine
 * (the socket's peer is loopback) whose browser says the page was opened directly or by itself
 * (`Sec-Fetch-Site` none / same-origin, or absent for a non-browser client): a page on another
 * site that navigates or fetches here gets the page without it. Cross-origin reads of the page are
 * refused anyway (no CORS grant), and it cannot be framed.
 */
function tokenFor(req: IncomingMessage, token: string | undefined): string | undefined {
  if (token === undefined) return 'local';
  const peer = req.socket.remoteAddress ?? '';
  const site = req.headers['sec-fetch-site'];
  const direct = site === undefined || site === 'none' || site === 'same-origin';
  return loopbackAddress.test(peer) && direct ? token : undefined;
}

function loadAssets(dir: string): Map<string, Asset> | Error {
  const assets = new Map<string, Asset>();
  try {
    for (const [path, file, type] of assetFiles) assets.set(path, { type, body: readFileSync(join(dir, file)) });
  } catch (error) {
    return new Error(`The dev console's page is not built (${(error as Error).message}): run \`npm run build\`, which runs scripts/build-console-page.mjs`);
  }
  return assets;
}

const defaultAssetsDir = fileURLToPath(new URL('./assets/', import.meta.url));

/** The console's page handler for the emulator. */
export function createConsoleHandler(options: ConsoleOptions): PageHandler {
  const loaded = loadAssets(options.assetsDir ?? defaultAssetsDir);
  const template = loaded instanceof Error ? '' : (loaded.get('/')?.body.toString('utf8') ?? '');
  if (!(loaded instanceof Error) && !template.includes(configMarker)) throw new Error(`index.html of the dev console has no ${configMarker}`);

  const headers = (type: string, length: number): Record<string, string | number> => ({
    'content-type': type,
    'content-length': length,
    'content-security-policy': consoleCsp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    // The page may carry the token; assets are tiny. Nothing is cached, so a rebuilt page is seen at once.
    'cache-control': 'no-store',
  });

  const send = (req: IncomingMessage, res: ServerResponse, status: number, type: string, body: Buffer, extra: Record<string, string> = {}): true => {
    // The emulator grants CORS to loopback origins for the API; the page is for its own origin only.
    res.removeHeader('access-control-allow-origin');
    res.writeHead(status, { ...headers(type, body.length), ...extra });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
  const text = (message: string): Buffer => Buffer.from(`${message}\n`, 'utf8');

  return (req, res, url) => {
    const path = (url ?? requestUrl(req.url))?.pathname;
    if (path === undefined) return false;
    const owned = path === '/' || path === '/index.html' || path === '/console' || path.startsWith('/console/');
    if (!owned) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(req, res, 405, 'text/plain; charset=utf-8', text(`${req.method} is not allowed on the dev console: use GET`), { allow: 'GET, HEAD' });
    }
    if (loaded instanceof Error) return send(req, res, 500, 'text/plain; charset=utf-8', text(loaded.message));
    if (path === '/' || path === '/index.html') {
      const a2a = options.a2aMount === undefined ? {} : { a2aMount: options.a2aMount };
      const config = JSON.stringify({ resource: options.resource, token: tokenFor(req, options.token) ?? null, ...a2a });
      // A function, so that `$&` and the like in a token are not replacement patterns.
      const page = Buffer.from(
        template.replace(configMarker, () => escapeAttribute(config)),
        'utf8',
      );
      return send(req, res, 200, 'text/html; charset=utf-8', page);
    }
    const asset = loaded.get(path);
    if (asset === undefined) return send(req, res, 404, 'text/plain; charset=utf-8', text(`No such file in the dev console: ${path}`));
    return send(req, res, 200, asset.type, asset.body);
  };
}

/** The request target as a URL, or undefined when it is not one (`//[`). */
function requestUrl(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://console.invalid');
  } catch {
    return undefined;
  }
}

/** Whether `--host` keeps the emulator on this machine: then the console is on unless `--no-console`. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}
