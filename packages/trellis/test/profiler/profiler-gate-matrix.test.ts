// The profiler gate, attacked: every spelling of a profiler URL a router may match × every kind of
// client. Only loopback and PROFILER_ALLOW clients ever get a 2xx or 3xx; everyone else gets the
// very 404 an unknown path gets. Spellings that route nowhere are 404 for everyone.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { profilerApp } from './profiler-app.ts';

/** {token} is replaced by a stored profile's token. */
const SPELLINGS = [
  '/_profiler',
  '/_profiler/',
  '/_profiler/latest',
  '/_profiler/latest?panel=request',
  '/_profiler/latest?panel=logs',
  '/_profiler/{token}',
  '/_profiler/{token}?panel=exception',
  '/_profiler/{token}/exception',
  '/_profiler/{token}/exception.css',
  '/_profiler/{token}.har',
  '/_profiler/latest.har',
  '/_profiler/{token}%2Ehar',
  '/_profiler/copy.js',
  '/_profiler/{token}.cpuprofile',
  '/_profiler/latest.cpuprofile',
  '/_profiler/copy%2Ejs',
  '/_profiler/latest/exception',
  '/_profiler/search',
  '/_profiler/search?limit=1&method=GET',
  '/_profiler/search.json',
  '/_profiler/search.json?limit=5',
  '/_profiler/search_bar',
  '/_profiler/{token}/compare/latest',
  '/_profiler/latest/compare/{token}.json',
  '/_profiler/{token}/compare?with=latest',
  '/_profiler/{token}/%63ompare/latest',
  '/_profiler/mcp',
  '/_profiler/%6Dcp',
  '/_profiler/live',
  '/_profiler/live.js',
  '/_profiler/l%69ve',
  '/_profiler/purge',
  '/_profiler/{token}/pin',
  '/_profiler/{token}/p%69n',
  '/%5Fprofiler/search.json',
  '/%5fprofiler/search.json',
  '/_profile%72/latest',
  '/_profile%72/latest/exception',
  '/%5F%70%72%6F%66%69%6C%65%72/latest',
  '/%5f%70%72%6f%66%69%6c%65%72/search',
  '/_profiler/%6Catest',
  '/_profiler/search%5Fbar',
  '/_profiler/search%2Ejson',
  '/_profiler/{token}/%65xception',
  '/_profiler/{token}/exception%2Ecss',
  '//_profiler/latest',
  '/./_profiler/latest',
  '/_profiler/../_profiler/latest',
  '/_profiler/latest;',
  '/_profiler;/latest',
  '/_profiler%2Flatest',
  '/_PROFILER/latest',
  '/_Profiler/search.json',
  '/_profiler/latest%3Fpanel=request',
  '/_profiler//latest',
  '/_profiler/latest/',
  '/_profiler/search.json/',
  '/_wdt/{token}',
  '/_wdt/toolbar.js',
  '/_wdt/toolbar.css',
  '/%5Fwdt/{token}',
  '/_wd%74/toolbar.js',
  '/_WDT/{token}',
  '/_profiler/theme/dark',
  '/_profiler/theme%2Fdark',
];

interface Client {
  readonly name: string;
  readonly remoteAddress: string;
  readonly headers?: Record<string, string>;
  readonly allowed: boolean;
  /** Told of its profile (X-Debug-Token…): its address is admitted, whatever its Host; default `allowed`. */
  readonly told?: boolean;
}

const CONFIGS: { name: string; env: Record<string, string>; clients: Client[] }[] = [
  {
    name: 'PROFILER_ALLOW=10.9.0.0/16',
    env: { PROFILER_ALLOW: '10.9.0.0/16, 2001:db8:a::/48' },
    clients: [
      { name: 'loopback v4', remoteAddress: '127.0.0.1', allowed: true },
      // DNS rebinding: a page of evil.example re-resolved to 127.0.0.1 reads what it fetches.
      { name: 'loopback, Host a rebound DNS name', remoteAddress: '127.0.0.1', headers: { host: 'evil.example:8000' }, allowed: false, told: true },
      { name: 'loopback, Host a rebound DNS name with a trailing dot', remoteAddress: '127.0.0.1', headers: { host: 'evil.example.:8000' }, allowed: false, told: true },
      { name: 'loopback, Host localhost.example (not a .localhost name)', remoteAddress: '127.0.0.1', headers: { host: 'localhost.example' }, allowed: false, told: true },
      { name: 'loopback, Host app.localhost (RFC 6761)', remoteAddress: '127.0.0.1', headers: { host: 'app.localhost:8000' }, allowed: true },
      { name: 'loopback, Host 127.0.0.1', remoteAddress: '127.0.0.1', headers: { host: '127.0.0.1:8000' }, allowed: true },
      { name: 'loopback, Host [::1]', remoteAddress: '::1', headers: { host: '[::1]:8000' }, allowed: true },
      { name: 'allowed CIDR, Host a DNS name (TRUSTED_HOSTS unset)', remoteAddress: '10.9.8.7', headers: { host: 'devbox.lan' }, allowed: false, told: true },
      { name: 'loopback 127/8', remoteAddress: '127.3.2.1', allowed: true },
      { name: 'loopback v6', remoteAddress: '::1', allowed: true },
      { name: 'loopback v4-mapped', remoteAddress: '::ffff:127.0.0.1', allowed: true },
      { name: 'allowed CIDR v4', remoteAddress: '10.9.8.7', allowed: true },
      { name: 'allowed CIDR v4-mapped', remoteAddress: '::ffff:10.9.8.7', allowed: true },
      { name: 'allowed CIDR v6', remoteAddress: '2001:db8:a::5', allowed: true },
      { name: 'denied v4', remoteAddress: '192.0.2.7', allowed: false },
      { name: 'denied v4 near the CIDR', remoteAddress: '10.10.0.1', allowed: false },
      { name: 'denied v6', remoteAddress: '2001:db8:b::5', allowed: false },
      { name: 'denied v4-mapped', remoteAddress: '::ffff:192.0.2.7', allowed: false },
      { name: 'forged X-Forwarded-For, no trusted proxy', remoteAddress: '192.0.2.7', headers: { 'x-forwarded-for': '127.0.0.1' }, allowed: false },
      { name: 'forged Forwarded, no trusted proxy', remoteAddress: '192.0.2.7', headers: { forwarded: 'for=127.0.0.1' }, allowed: false },
    ],
  },
  {
    name: 'TRUSTED_HOSTS names the hosts: a DNS name the operator listed opens it',
    env: { PROFILER_ALLOW: '10.9.0.0/16', TRUSTED_HOSTS: '^(localhost|devbox\\.lan)$' },
    clients: [
      { name: 'allowed CIDR, Host a trusted name', remoteAddress: '10.9.8.7', headers: { host: 'devbox.lan:8000' }, allowed: true },
      { name: 'denied address, Host a trusted name', remoteAddress: '192.0.2.7', headers: { host: 'devbox.lan' }, allowed: false },
    ],
  },
  {
    name: 'TRUSTED_PROXIES=192.0.2.1',
    env: { TRUSTED_PROXIES: '192.0.2.1' },
    clients: [
      { name: 'through the proxy, client loopback', remoteAddress: '192.0.2.1', headers: { 'x-forwarded-for': '127.0.0.1' }, allowed: true },
      { name: 'through the proxy, denied client', remoteAddress: '192.0.2.1', headers: { 'x-forwarded-for': '198.51.100.9' }, allowed: false },
      { name: 'client-forged loopback, proxy appends the real one', remoteAddress: '192.0.2.1', headers: { 'x-forwarded-for': '127.0.0.1, 198.51.100.9' }, allowed: false },
      { name: 'proxy forwarding a v4-mapped denied client', remoteAddress: '192.0.2.1', headers: { forwarded: 'for="[::ffff:198.51.100.9]"' }, allowed: false },
      { name: 'forged 127.evil.example (400)', remoteAddress: '192.0.2.1', headers: { 'x-forwarded-for': '127.evil.example' }, allowed: false },
      { name: 'forged 127.0.0.1:80 (400)', remoteAddress: '192.0.2.1', headers: { 'x-forwarded-for': '127.0.0.1:80' }, allowed: false },
      { name: 'empty X-Forwarded-For (400)', remoteAddress: '192.0.2.1', headers: { 'x-forwarded-for': '' }, allowed: false },
      { name: 'the proxy itself, no header', remoteAddress: '192.0.2.1', allowed: false },
      { name: 'not the proxy, forging', remoteAddress: '192.0.2.2', headers: { 'x-forwarded-for': '127.0.0.1' }, allowed: false },
      // DNS rebinding through the proxy: the rebound page is same-origin, so it may add X-Forwarded-Host.
      { name: 'through the proxy, Host a rebound name, X-Forwarded-Host localhost', remoteAddress: '192.0.2.1', headers: { 'x-forwarded-for': '127.0.0.1', host: 'evil.example:8103', 'x-forwarded-host': 'localhost' }, allowed: false, told: true },
      { name: 'through the proxy, Host localhost, X-Forwarded-Host a rebound name', remoteAddress: '192.0.2.1', headers: { 'x-forwarded-for': '127.0.0.1', host: 'localhost', 'x-forwarded-host': 'evil.example' }, allowed: false, told: true },
    ],
  },
];

for (const config of CONFIGS) {
  describe(`profiler gate matrix (${config.name})`, () => {
    let app: FastifyInstance;
    let token: string;
    const asLoopback = new Map<string, number>();
    before(async () => {
      app = await profilerApp(config.env);
      token = (await app.inject({ url: '/hello' })).headers['x-debug-token'] as string;
      await app.profiler!.settled();
      for (const spelling of SPELLINGS) {
        const url = spelling.replace('{token}', token);
        asLoopback.set(url, (await app.inject({ url })).statusCode);
      }
    });
    after(() => app.close());

    test('the spellings that route reach the profiler from loopback', () => {
      const reached = [...asLoopback].filter(([, status]) => status < 400).map(([url]) => url.replace(token, '{token}'));
      // Decoding is the router's: these are the routes, however spelled.
      assert.ok(reached.includes('/%5Fprofiler/search.json') && reached.includes('/_profile%72/latest') && reached.includes('/%5F%70%72%6F%66%69%6C%65%72/latest'), reached.join(' '));
      assert.ok(reached.length >= 25, `${reached.length} spellings reach it`);
    });

    for (const client of config.clients) {
      const told = client.told ?? client.allowed;
      test(`${client.name}: ${told ? 'is told of its profile' : 'is not told the profiler is there, and its request is recorded all the same'}`, async () => {
        const res = await app.inject({ url: '/hello', remoteAddress: client.remoteAddress, headers: { accept: 'application/json', ...client.headers } });
        const headers = ['x-debug-token', 'x-debug-token-link', 'server-timing'].filter((name) => res.headers[name] !== undefined);
        if (res.statusCode === 400) return assert.deepEqual(headers, [], 'a refused forwarded address');
        assert.deepEqual(headers, told ? ['x-debug-token', 'x-debug-token-link', 'server-timing'] : []);
        await app.profiler!.settled();
        const newest = (await app.inject({ url: '/_profiler/search.json?limit=1' })).json() as { results: { ip: string; url: string }[] };
        assert.match(newest.results[0]!.url, /\/hello$/, 'recorded');
      });

      test(`${client.name}: ${client.allowed ? 'opens what loopback opens' : 'never gets a 2xx or 3xx'}`, async () => {
        for (const spelling of SPELLINGS) {
          for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'] as const) {
            const url = spelling.replace('{token}', token);
            const res = await app.inject({ method, url, remoteAddress: client.remoteAddress, headers: { accept: 'application/json', ...client.headers } });
            const where = `${method} ${url} from ${client.name}`;
            if (client.allowed) {
              if (method === 'GET') assert.equal(res.statusCode, asLoopback.get(url), where);
              continue;
            }
            assert.ok(res.statusCode >= 400, `${where}: ${res.statusCode}`);
            assert.notEqual(res.statusCode, 405, `${where}: a 405 would reveal the route`);
            assert.equal(res.headers.allow, undefined, where);
            // Nothing of a profile, a listing or a profiler page; no frame of the profiler's code.
            assert.doesNotMatch(res.body, /"token"\s*:|"results"|exception-body|<html|profiler-(routes|plugin)/i, where);
            if (method === 'HEAD') assert.ok([400, 404].includes(res.statusCode), where);
            else if (res.statusCode === 400) assert.match(res.json().detail, /^The trusted "(X-Forwarded-For|Forwarded)" header names a client that is not an IP address/, where);
            else {
              assert.equal(res.statusCode, 404, where);
              // (app.inject resolves dot segments before the app sees the URL, so not the spelling itself.)
              assert.match(res.json().detail, new RegExp(`^No route found for "${method} /[^"]*"$`), where);
              // The very 404 of a path that does not exist: no header of the profiler's pages on it.
              const ordinary = await app.inject({ method, url: '/nowhere-at-all', remoteAddress: client.remoteAddress, headers: { accept: 'application/json', ...client.headers } });
              for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'cache-control', 'x-robots-tag', 'content-type']) assert.equal(res.headers[name], ordinary.headers[name], `${where}: ${name}`);
            }
          }
        }
      });
    }
  });
}

describe('profiler routes never answer another origin', () => {
  let app: FastifyInstance;
  let token: string;
  before(async () => {
    app = await profilerApp({});
    token = (await app.inject({ url: '/hello' })).headers['x-debug-token'] as string;
    await app.profiler!.settled();
  });
  after(() => app.close());

  test('a page on an allowed origin (localhost:5173) reads the API cross-origin, and no profiler response', async () => {
    const origin = 'http://localhost:5173';
    const api = await app.inject({ url: '/hello', headers: { origin } });
    assert.equal(api.headers['access-control-allow-origin'], origin);
    for (const spelling of SPELLINGS) {
      const url = spelling.replace('{token}', token);
      for (const method of ['GET', 'HEAD', 'POST'] as const) {
        const res = await app.inject({ method, url, headers: { origin, accept: 'application/json' } });
        // A spelling that routes nowhere ('//_profiler/latest') is the app's plain 404, as any path's.
        if (res.statusCode === 404 && !/^\/(_profiler|_wdt)(\/|$)/.test(decodeURI(url.split('?')[0]!))) continue;
        assert.equal(res.headers['access-control-allow-origin'], undefined, `${method} ${url}: ${res.statusCode}`);
        assert.equal(res.headers['access-control-allow-credentials'], undefined, `${method} ${url}`);
      }
    }
  });
});

/** One raw HTTP/1.1 exchange, for request lines app.inject cannot send. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('timeout')));
    socket.on('data', (c) => (out += c));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
    socket.write(request);
  });
}

describe('profiler gate over a real socket: absolute-form request lines', () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await profilerApp({ TRUSTED_PROXIES: '127.0.0.1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
    await app.inject({ url: '/hello' });
    await app.profiler!.settled();
  });
  after(() => app.close());

  for (const target of ['http://localhost/_profiler/latest', 'http://localhost/%5Fprofiler/search.json', 'HTTP://localhost/_profile%72/search.json?limit=1', 'http://evil.example/_profiler/search.json']) {
    // RFC 9112 §3.2.2: the target's host is the request's, not the Host field's; a target naming
    // a host that is not local is refused like a rebound Host, from loopback too.
    const local = !target.includes('evil.example');
    test(`GET ${target}: 404 for a denied client, ${local ? '200' : '404'} for loopback`, async () => {
      const denied = await raw(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: 198.51.100.9\r\nConnection: close\r\n\r\n`);
      assert.match(denied, /^HTTP\/1\.1 404 /);
      assert.doesNotMatch(denied, /"token"|search_bar/);
      const allowed = await raw(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      assert.match(allowed, local ? /^HTTP\/1\.1 200 / : /^HTTP\/1\.1 404 /);
      if (!local) assert.doesNotMatch(allowed, /"token"|search_bar/);
    });
  }
});
