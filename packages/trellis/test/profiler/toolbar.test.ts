// The web debug toolbar from outside: which responses get it (Symfony's rules: an HTML page a
// person navigated to, of a profiled main request, for a client that may open the profiler), what
// its fragment says, and the host page's CSP widened by exactly a nonce.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { BROWSER, profilerApp } from './profiler-app.ts';

const PAGE = '<!DOCTYPE html><html><head><title>t</title></head><body><h1>Hello</h1></body></html>';
const STRICT = "default-src 'none'; style-src 'self'";
const TOOLBAR = /<div id="trellis-wdt" data-token="([0-9a-f]{6})"><\/div><script src="\/_wdt\/toolbar\.js" nonce="([A-Za-z0-9_-]{22})" async><\/script>\n<\/body>/;

function routes(app: FastifyInstance) {
  app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', STRICT).send(PAGE));
  app.post('/page', async (_request, reply) => reply.type('text/html').send(PAGE));
  app.get('/page/buffer', async (_request, reply) => reply.type('text/html').header('content-length', Buffer.byteLength(PAGE)).send(Buffer.from(PAGE)));
  app.get('/page/upper', async (_request, reply) => reply.type('TEXT/HTML').send(PAGE.replace('</body>', '</BODY>')));
  app.get('/page/json', async () => ({ html: PAGE }));
  app.get('/page/xhtml', async (_request, reply) => reply.type('application/xhtml+xml').send(PAGE));
  app.get('/page/redirect', async (_request, reply) => reply.code(302).header('location', '/page').type('text/html').send(PAGE));
  app.get('/page/attachment', async (_request, reply) => reply.type('text/html').header('content-disposition', 'attachment; filename="p.html"').send(PAGE));
  app.get('/page/fragment', async (_request, reply) => reply.type('text/html').send('<p>no body element</p>'));
  app.get('/page/hostile', async (_request, reply) => reply.type('text/html').send(`<body>${'</body>'.repeat(3)}<!-- "><script>alert(1)</script>`));
}

describe('web debug toolbar', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({ PROFILER_ALLOW: '10.0.0.0/8' }, {}, routes);
  });
  after(() => app.close());

  test('an HTML page gets the toolbar before </body>, naming its own profile, and its CSP allows exactly that nonce', async () => {
    const res = await app.inject({ url: '/page', headers: { accept: BROWSER } });
    assert.equal(res.statusCode, 200);
    const [, token, nonce] = TOOLBAR.exec(res.body) ?? [];
    assert.equal(token, res.headers['x-debug-token']);
    assert.ok(res.body.startsWith('<!DOCTYPE html><html><head><title>t</title></head><body><h1>Hello</h1><div id="trellis-wdt"'));
    assert.equal(res.headers['content-security-policy'], `default-src 'none'; style-src 'self' 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'`);
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
  });

  test('each page gets its own nonce', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) nonces.add(TOOLBAR.exec((await app.inject({ url: '/page' })).body)![2]!);
    assert.equal(nonces.size, 5);
  });

  test('a Buffer body with a length set by the handler: the length is the new one; upper-case </BODY> and TEXT/HTML too', async () => {
    const buffer = await app.inject({ url: '/page/buffer' });
    assert.match(buffer.body, TOOLBAR);
    assert.equal(Number(buffer.headers['content-length']), Buffer.byteLength(buffer.body));
    const upper = await app.inject({ url: '/page/upper' });
    assert.match(upper.body, /<script src="\/_wdt\/toolbar\.js" nonce="[^"]+" async><\/script>\n<\/BODY>/);
  });

  test('a POST that answers a page (a form post) gets it; only the last </body> of a hostile page is used', async () => {
    assert.match((await app.inject({ method: 'POST', url: '/page', payload: '{"a":1}', headers: { 'content-type': 'application/json' } })).body, TOOLBAR);
    const hostile = (await app.inject({ url: '/page/hostile' })).body;
    assert.equal(hostile.split('trellis-wdt').length, 2);
    assert.ok(hostile.startsWith('<body></body></body><div id="trellis-wdt"'), hostile.slice(0, 60));
  });

  const untouched: [string, string, Record<string, string>?][] = [
    ['JSON', '/page/json'],
    ['XHTML (only text/html is a page the toolbar knows)', '/page/xhtml'],
    ['a redirect', '/page/redirect'],
    ['an attachment', '/page/attachment'],
    ['HTML without </body>', '/page/fragment'],
    ['an XMLHttpRequest (X-Requested-With)', '/page', { 'x-requested-with': 'XMLHttpRequest' }],
    ['a fetch() (Sec-Fetch-Dest: empty)', '/page', { 'sec-fetch-dest': 'empty' }],
    ['an image request (Sec-Fetch-Dest: image)', '/page', { 'sec-fetch-dest': 'image' }],
  ];
  for (const [name, url, headers] of untouched) {
    test(`no toolbar in ${name}`, async () => {
      const res = await app.inject({ url, headers: { accept: BROWSER, ...headers } });
      assert.match(String(res.headers['x-debug-token']), /^[0-9a-f]{6}$/, 'the request is profiled all the same');
      assert.doesNotMatch(res.body, /trellis-wdt|_wdt/);
    });
  }

  test('a navigation (Sec-Fetch-Dest: document or iframe) gets it', async () => {
    for (const dest of ['document', 'iframe']) assert.match((await app.inject({ url: '/page', headers: { 'sec-fetch-dest': dest } })).body, TOOLBAR, dest);
  });

  test('HEAD sends the headers GET sends, Content-Length and the CSP with a nonce included (RFC 9110 §8.6, §9.3.2)', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/page' });
    const get = await app.inject({ url: '/page' });
    assert.equal(head.body, '');
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    assert.equal(Number(head.headers['content-length']), Buffer.byteLength(get.body));
    assert.match(String(head.headers['content-security-policy']), /^default-src 'none'; style-src 'self' 'nonce-[\w-]+'; script-src 'nonce-[\w-]+'; connect-src 'self'$/);
  });

  test('a client the profiler gate refuses never sees the toolbar, and an allowed one (PROFILER_ALLOW) does', async () => {
    const refused = await app.inject({ url: '/page', remoteAddress: '192.0.2.7' });
    assert.equal(refused.body, PAGE);
    assert.equal(refused.headers['content-security-policy'], STRICT);
    assert.match((await app.inject({ url: '/page', remoteAddress: '10.1.2.3' })).body, TOOLBAR);
  });

  test("the debug error page of a 404 and /docs get it; the profiler's own pages do not", async () => {
    const notFound = await app.inject({ url: '/nothing-here', headers: { accept: BROWSER } });
    assert.equal(notFound.statusCode, 404);
    assert.equal(TOOLBAR.exec(notFound.body)?.[1], notFound.headers['x-debug-token']);
    const docs = await app.inject({ url: '/docs', headers: { accept: BROWSER } });
    assert.match(docs.body, TOOLBAR);
    assert.match(String(docs.headers['content-security-policy']), /script-src 'self' 'nonce-[^']+';/);
    await app.profiler!.settled();
    const profiler = await app.inject({ url: '/_profiler/latest', headers: { accept: BROWSER } });
    assert.equal(profiler.statusCode, 200);
    assert.doesNotMatch(profiler.body, /trellis-wdt/);
  });
});

describe('web debug toolbar: the fragment and its files', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({}, {}, routes);
  });
  after(() => app.close());

  test('/_wdt/<token>: status, method and route, time, memory, the panels with something to say, each linking to its panel', async () => {
    const page = await app.inject({ url: '/nothing-here?q=%3Cscript%3E', headers: { accept: BROWSER } });
    const token = page.headers['x-debug-token'] as string;
    const res = await app.inject({ url: `/_wdt/${token}` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache, private');
    assert.match(res.body, new RegExp(`<a class="wdt-item wdt-status status-4xx" href="/_profiler/${token}\\?panel=request" title="No route matched" data-panel="request"><span class="wdt-value">404</span><span class="wdt-label">GET /nothing-here</span></a>`));
    assert.match(res.body, new RegExp(`href="/_profiler/${token}\\?panel=time" title="Total time" data-panel="time"><span class="wdt-value">[0-9.]+ ms</span>`));
    assert.match(res.body, /data-panel="memory"><span class="wdt-value">[0-9.]+ MB<\/span>/);
    assert.match(res.body, new RegExp(`<a class="wdt-item warn" href="/_profiler/${token}\\?panel=router" title="Routing" data-panel="router"><span class="wdt-label">Routing</span><span class="wdt-value">no route</span></a>`));
    assert.match(res.body, new RegExp(`<a class="wdt-item wdt-token" href="/_profiler/${token}" title="Open the profile">${token}</a>`));
    assert.doesNotMatch(res.body, /<script/i);
  });

  test('a matched route is named by its pattern, and a query string never reaches the label', async () => {
    const token = (await app.inject({ url: '/page?secret=%3Cscript%3E' })).headers['x-debug-token'] as string;
    const res = await app.inject({ url: `/_wdt/${token}` });
    assert.match(res.body, /title="Route \/page" data-panel="request"><span class="wdt-value">200<\/span><span class="wdt-label">GET \/page<\/span>/);
    assert.doesNotMatch(res.body, /secret|<script/);
  });

  test('unknown, malformed and `latest` tokens: 404 with the exact message', async () => {
    for (const token of ['000000', 'latest', 'zzzzzz', 'abc', '%3Cscript%3E']) {
      const res = await app.inject({ url: `/_wdt/${token}`, headers: { accept: 'application/json' } });
      assert.equal(res.statusCode, 404, token);
      assert.equal(res.json().detail, `Token "${decodeURIComponent(token)}" not found.`, token);
    }
  });

  test('the script and stylesheet: their types, an ETag, 304 on revalidation', async () => {
    const script = await app.inject({ url: '/_wdt/toolbar.js' });
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.match(script.body, /attachShadow/);
    const etag = script.headers.etag as string;
    assert.match(etag, /^"[A-Za-z0-9_-]{16}"$/);
    assert.equal((await app.inject({ url: '/_wdt/toolbar.js', headers: { 'if-none-match': etag } })).statusCode, 304);
    const style = await app.inject({ url: '/_wdt/toolbar.css' });
    assert.equal(style.headers['content-type'], 'text/css; charset=utf-8');
    assert.match(style.body, /\.wdt-bar \{/);
  });
});

describe('web debug toolbar: PROFILER_TOOLBAR=0', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({ PROFILER_TOOLBAR: '0' }, {}, routes);
  });
  after(() => app.close());

  test('pages are left as they are; the profile is still recorded', async () => {
    const res = await app.inject({ url: '/page' });
    assert.equal(res.body, PAGE);
    assert.match(String(res.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  });
});
