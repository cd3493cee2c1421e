/**
 * The registry `npm run release:check` installs from (scripts/local-registry.mjs): it serves the
 * packuments and tarballs of packed packages (npm installs one, checking its integrity), forwards
 * every other request untouched to the upstream registry (here a fake one on loopback, so the test
 * needs no network), never asks upstream about a packed package, and answers 502 when upstream
 * does not.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type LocalRegistry, startLocalRegistry } from '../../scripts/local-registry.mjs';
import { childEnv, run } from '../../scripts/packed-packages.mjs';

const manifest = { name: '@agentgen/probe', version: '1.2.3', main: 'index.js', dependencies: {} };
let work: string;
let tarball: string;
let packed: Map<string, { file: string; manifest: typeof manifest; integrity: string; shasum: string }>;
let upstream: Server;
let upstreamOrigin: string;
const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
const upstreamBody = gzipSync(JSON.stringify({ name: 'left-pad', 'dist-tags': { latest: '1.3.0' } }));
let registry: LocalRegistry;

/** A GET with the bytes as they came (no decompression), for checking what was passed on. */
function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'agentgen-local-registry-'));
  mkdirSync(join(work, 'package'));
  writeFileSync(join(work, 'package/package.json'), JSON.stringify(manifest));
  writeFileSync(join(work, 'package/index.js'), 'module.exports = "probe";\n');
  tarball = join(work, 'agentgen-probe-1.2.3.tgz');
  await run('tar', ['-czf', tarball, 'package'], work);
  const bytes = readFileSync(tarball);
  packed = new Map([
    [
      manifest.name,
      {
        file: tarball,
        manifest,
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
      },
    ],
  ]);

  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url!.includes('missing')) res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      else res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-upstream': 'yes' }).end(upstreamBody);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamOrigin = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  // An upstream below a path: requests keep their path below it.
  registry = await startLocalRegistry(packed, { upstream: `${upstreamOrigin}/mirror/` });
});

afterAll(async () => {
  await registry?.close();
  await new Promise((resolve) => upstream?.close(resolve));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a packed package', () => {
  test('its packument has the one version, as latest, pointing at its tarball with the tarball’s integrity', async () => {
    const response = await fetch(`${registry.url}@agentgen%2fprobe`, { headers: { accept: 'application/vnd.npm.install-v1+json' } });
    expect(response.status).toBe(200);
    const packument = (await response.json()) as { name: string; 'dist-tags': Record<string, string>; versions: Record<string, any> };
    expect(packument.name).toBe('@agentgen/probe');
    expect(packument['dist-tags']).toEqual({ latest: '1.2.3' });
    expect(Object.keys(packument.versions)).toEqual(['1.2.3']);
    const { dist, ...version } = packument.versions['1.2.3'];
    expect(version).toEqual({ ...manifest, _id: '@agentgen/probe@1.2.3' });
    expect(dist.tarball).toBe(`${registry.url}tarballs/agentgen-probe-1.2.3.tgz`);

    const served = Buffer.from(await (await fetch(dist.tarball)).arrayBuffer());
    expect(served.equals(readFileSync(tarball))).toBe(true);
    expect(dist.integrity).toBe(`sha512-${createHash('sha512').update(served).digest('base64')}`);
    expect(dist.shasum).toBe(createHash('sha1').update(served).digest('hex'));
    expect(registry.requests).toEqual(expect.arrayContaining(['GET @agentgen/probe', 'GET tarballs/agentgen-probe-1.2.3.tgz']));
  });

  test('npm installs it from the registry (and checks its integrity)', async () => {
    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    const env = childEnv({
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    });
    await run('npm', ['install', `--registry=${registry.url}`, '@agentgen/probe'], project, env);
    expect(readFileSync(join(project, 'node_modules/@agentgen/probe/index.js'), 'utf8')).toBe('module.exports = "probe";\n');
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { integrity?: string }> };
    expect(lock.packages['node_modules/@agentgen/probe']!.integrity).toBe(packed.get(manifest.name)!.integrity);
  });

  test('is never asked of upstream: another version, an unknown tarball, or its name outside the run’s path is a 404 here', async () => {
    const before = seen.length;
    const origin = new URL(registry.url).origin;
    for (const url of [
      `${registry.url}@agentgen%2fprobe/-/probe-9.9.9.tgz`,
      `${registry.url}tarballs/agentgen-probe-9.9.9.tgz`,
      `${origin}/@agentgen%2fprobe`,
      `${origin}/@agentgen/probe/-/probe-1.2.3.tgz`,
    ]) {
      expect((await rawGet(url)).status, url).toBe(404);
    }
    expect(seen.length).toBe(before);
  });
});

describe('every other request', () => {
  test('goes upstream below the run’s path, with its query and headers; the answer comes back byte for byte', async () => {
    const answer = await rawGet(`${registry.url}left-pad?write=true`, { accept: 'application/vnd.npm.install-v1+json', 'npm-command': 'install' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['x-upstream']).toBe('yes');
    expect(answer.body.equals(upstreamBody)).toBe(true);
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'GET', url: '/mirror/left-pad?write=true' });
    expect(request.headers).toMatchObject({ accept: 'application/vnd.npm.install-v1+json', 'npm-command': 'install', host: new URL(upstreamOrigin).host });
    expect(registry.forwarded).toContain('GET /left-pad?write=true');
  });

  test("npm's tarball requests at the registry's origin, a scoped name, a POST with its body and an upstream 404 go through too", async () => {
    const origin = new URL(registry.url).origin;
    expect((await rawGet(`${origin}/left-pad/-/left-pad-1.3.0.tgz`)).status).toBe(200);
    expect(seen.at(-1)!.url).toBe('/mirror/left-pad/-/left-pad-1.3.0.tgz');
    expect((await rawGet(`${registry.url}@types%2fnode`)).status).toBe(200);
    expect(seen.at(-1)!.url).toBe('/mirror/@types%2fnode');
    const posted = await fetch(`${registry.url}-/npm/v1/security/advisories/bulk`, { method: 'POST', body: '{"zod":["4.1.0"]}' });
    expect(posted.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/mirror/-/npm/v1/security/advisories/bulk', body: '{"zod":["4.1.0"]}' });
    const missing = await rawGet(`${registry.url}missing-package`);
    expect([missing.status, missing.body.toString()]).toEqual([404, '{"error":"Not found"}']);
  });

  test('an upstream that does not answer is a 502 that names it', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadOrigin = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await startLocalRegistry(packed, { upstream: deadOrigin });
    try {
      const answer = await rawGet(`${unreachable.url}left-pad`);
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body.toString())).toEqual({ error: `upstream ${deadOrigin} did not answer: ECONNREFUSED` });
    } finally {
      await unreachable.close();
    }
  });

  test('without an upstream (one scope’s registry) is a 404, recorded', async () => {
    const scope = await startLocalRegistry(packed);
    try {
      expect((await rawGet(`${scope.url}zod`)).status).toBe(404);
      expect(scope.requests).toEqual(['GET zod']);
      expect(scope.forwarded).toEqual([]);
    } finally {
      await scope.close();
    }
  });
});
