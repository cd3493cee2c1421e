// An npm registry on 127.0.0.1 for packed packages of this repository, so that npm installs them
// as it will from npmjs once they are published. It serves a packument for each packed package at
// `<url><name>` and its tarball at `<url>tarballs/<file>`, under a fresh path per run so that
// nothing npm cached from an earlier run answers for this one. Every other request goes to
// `upstream` (the real registry) when one is given, else gets a 404: then point npm at it for one
// scope only (`@scope:registry=<url>`).
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basename } from 'node:path';

/** Headers of one connection, not of the message: never passed on by a proxy. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']);

/** A stalled upstream fails the request instead of hanging the install. */
const upstreamTimeoutMs = 60_000;

function withoutHopByHop(headers) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name.toLowerCase())));
}

/** The packument npm reads for one packed package: its one version, the latest, pointing at our tarball. */
function packumentOf({ manifest, file, integrity, shasum }, url) {
  const version = {
    ...manifest,
    _id: `${manifest.name}@${manifest.version}`,
    dist: { tarball: `${url}tarballs/${basename(file)}`, integrity, shasum },
  };
  return { _id: manifest.name, name: manifest.name, 'dist-tags': { latest: manifest.version }, versions: { [manifest.version]: version } };
}

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Passes one request on to `upstream` (same path below it, same method, headers and body) and its answer back. */
function forward(req, res, upstream, path) {
  const target = new URL(path.replace(/^\//, ''), upstream);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const outgoing = send(target, { method: req.method, headers: withoutHopByHop(req.headers), timeout: upstreamTimeoutMs }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
    answer.on('error', () => res.destroy());
    answer.pipe(res);
  });
  // npm gave up on this request: so does the registry.
  res.on('close', () => outgoing.destroy());
  const fail = (status, reason) => {
    if (res.headersSent) res.destroy();
    else sendJson(res, status, { error: `upstream ${upstream.origin} did not answer: ${reason}` });
  };
  outgoing.on('timeout', () => outgoing.destroy(Object.assign(new Error(`no answer in ${upstreamTimeoutMs / 1000} s`), { code: 'TIMEOUT' })));
  outgoing.on('error', (error) => fail(error.code === 'TIMEOUT' ? 504 : 502, error.code ?? error.message));
  req.pipe(outgoing);
}

/**
 * Starts the registry. `packed`: name → { file, manifest, integrity, shasum } (what
 * scripts/packed-packages.mjs describes). `upstream`: the registry that answers for every other
 * package (e.g. https://registry.npmjs.org/), or none. `requests` records every request answered
 * here (`GET <name>`, `GET tarballs/<file>`, below the run's path), `forwarded` what went upstream.
 */
export async function startLocalRegistry(packed, { upstream } = {}) {
  const upstreamUrl = upstream === undefined ? undefined : new URL(upstream.endsWith('/') ? upstream : `${upstream}/`);
  const prefix = `/run-${process.pid}-${Date.now()}/`;
  const requests = [];
  const forwarded = [];
  const byFile = new Map([...packed.values()].map((p) => [basename(p.file), p]));
  let url = '';
  const server = createServer((req, res) => {
    const raw = req.url ?? '/';
    const rawPath = raw.split('?')[0];
    let path;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      return sendJson(res, 400, { error: 'the path is not valid percent-encoding' });
    }
    const rest = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
    const tarball = rest?.startsWith('tarballs/') ? byFile.get(rest.slice('tarballs/'.length)) : undefined;
    const document = rest === undefined ? undefined : packed.get(rest);
    const below = rest ?? path.replace(/^\//, '');
    const ours = [...packed.keys()].some((name) => below === name || below.startsWith(`${name}/`));
    const answeredHere = upstreamUrl === undefined || ours || rest?.startsWith('tarballs/');
    if (answeredHere) requests.push(`${req.method} ${rest ?? path}`);
    if ((req.method === 'GET' || req.method === 'HEAD') && tarball) {
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(req.method === 'HEAD' ? undefined : readFileSync(tarball.file));
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && document) return sendJson(res, 200, packumentOf(document, url));
    // A packed package is never looked up upstream: an unknown tarball or version of it is missing
    // here, and an older release on the real registry must not answer for the one being checked.
    if (answeredHere) return sendJson(res, 404, { error: 'not found' });
    // npm asks for other packages' tarballs at the registry's origin, outside the run's path.
    const upstreamPath = `${rest === undefined ? rawPath : rawPath.slice(prefix.length - 1)}${raw.slice(rawPath.length)}`;
    forwarded.push(`${req.method} ${upstreamPath}`);
    forward(req, res, upstreamUrl, upstreamPath);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}${prefix}`;
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, requests, forwarded, close };
}
