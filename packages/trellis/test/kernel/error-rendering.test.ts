import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApp, createLogger, HttpError } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
/** Anything that would leak internals: stack frames, source paths, exception class names. */
const LEAKS = [/\bat [\w.<>]+ \(/, /\.ts:\d+/, /node_modules/, /Exception/, /"exceptions"/, /TypeError/, /secret detail/];

async function build(env: Record<string, string>): Promise<FastifyInstance> {
  const config = testConfig({ PROFILER: '0', LOG_LEVEL: 'debug', ...env });
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  const app = await createApp({ config, tls: null, logger: createLogger({ level: 'debug', captureRequestRecords: config.debug, destination: sink }) });
  app.get('/boom', async (request) => {
    request.log.warn({ channel: 'app', order: 42 }, 'about to fail <b>loudly</b>');
    throw new TypeError('secret detail of the failure');
  });
  app.get('/teapot', async () => {
    throw new HttpError(418, 'teapot', 'I refuse to brew coffee.');
  });
  // A message quoting what the client sent, as `Item not found for "/books/…"` does.
  app.get<{ Params: { name: string } }>('/named/:name', async (request) => {
    throw new HttpError(404, 'not_found', `Nothing is named "${request.params.name}".`);
  });
  await app.ready();
  return app;
}

describe('debug configuration', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await build({});
  });
  after(() => app.close());

  test('a browser gets the full exception page: title, status, message, chain, log, code excerpt', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom', headers: { accept: BROWSER } });
    assert.equal(res.statusCode, 500);
    const body = res.body;
    assert.ok(body.includes('<title>secret detail of the failure (500 Internal Server Error)</title>'));
    assert.ok(body.includes('<div class="status">500 Internal Server Error</div>'));
    assert.ok(body.includes('<span class="exception-class">TypeError</span><span class="exception-message">secret detail of the failure</span>'));
    // The log record written by the handler, escaped, with its channel and context.
    assert.ok(body.includes('<td class="level-warn">warn</td><td>app</td><td>about to fail &lt;b&gt;loudly&lt;/b&gt;</td>'), 'log row');
    assert.ok(body.includes('&quot;order&quot;:42'));
    // The frame of the throwing line, mapped to this TypeScript file, with its source line highlighted.
    assert.match(body, /packages\/trellis\/test\/kernel\/error-rendering\.test\.ts:\d+/);
    assert.ok(body.includes("throw new TypeError(&#39;secret detail of the failure&#39;);"));
    assert.match(body, /<span class="current"><i>\d+<\/i>\s+throw new TypeError/);
  });

  test('an API client gets problem+json with the exception chain and frames', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    const body = res.json();
    assert.equal(body.detail, 'secret detail of the failure');
    assert.equal(body.exceptions[0].class, 'TypeError');
    assert.match(body.exceptions[0].trace[0].file, /error-rendering\.test\.ts$/);
  });

  test("a message's line that reads like a stack frame is not one: the file it names is never read", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-frame-'));
    try {
      const file = join(dir, 'secrets.env');
      writeFileSync(file, 'line one\nJWT_SECRET=frame-injection-canary\nline three\n');
      // Before the fix, this line of the message was parsed as a frame and lines 1–5 of the file shown.
      const url = `/named/x${encodeURIComponent(`\n    at x (${file}:2:1)\n`)}y`;
      for (const accept of [BROWSER, 'application/json']) {
        const res = await app.inject({ method: 'GET', url, headers: { accept } });
        assert.equal(res.statusCode, 404);
        assert.equal(res.body.includes('frame-injection-canary'), false, accept);
        // The message names the file, and says so; no frame does.
        if (accept === BROWSER) assert.doesNotMatch(res.body, /class="frame-file">[^<]*secrets\.env/);
        else assert.equal(res.json().exceptions[0].trace.some((f: { file: string }) => f.file.includes('secrets.env')), false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('custom HttpErrors keep status and message', async () => {
    const res = await app.inject({ method: 'GET', url: '/teapot' });
    assert.equal(res.statusCode, 418);
    assert.equal(res.json().detail, 'I refuse to brew coffee.');
    assert.equal(res.json().title, "I'm a Teapot");
  });
});

describe('production configuration', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await build({ NODE_ENV: 'production', LOG_LEVEL: 'info' });
  });
  after(() => app.close());

  test('4xx keep their exact message, with no trace', async () => {
    const res = await app.inject({ method: 'GET', url: '/robots.txt', headers: { referer: 'https://x.test/' } });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), {
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No route found for "GET /robots.txt" (from "https://x.test/")',
      code: 'route_not_found',
    });
    const html = await app.inject({ method: 'GET', url: '/robots.txt', headers: { accept: BROWSER, referer: 'https://x.test/' } });
    assert.ok(html.body.includes('<title>404 Not Found</title>'));
    assert.ok(html.body.includes('<p>No route found for &quot;GET /robots.txt&quot; (from &quot;https://x.test/&quot;)</p>'));
  });

  test('5xx say only the status text', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'Internal Server Error', code: 'internal_error' });
  });

  test('no production response contains a stack frame, a path or a class name', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['GET', '/boom', { accept: BROWSER }],
      ['GET', '/boom', {}],
      ['GET', '/robots.txt', { accept: BROWSER }],
      ['DELETE', '/', {}],
      ['GET', '/', { host: 'exa mple.com', accept: BROWSER }],
      ['GET', '/%zz', {}],
    ];
    for (const [method, url, headers] of cases) {
      const res = await app.inject({ method: method as 'GET', url, headers });
      for (const leak of LEAKS) assert.doesNotMatch(res.body, leak, `${method} ${url} ${JSON.stringify(headers)}`);
    }
  });
});
