import { describe, test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { BROWSER, allProfiles, allRecords, profilerApp } from './profiler-app.ts';
import { defaultPanels } from '../../src/profiler/panels/default-panels.ts';

const CANARY = 'canary-7f3e9b1d';
const PAGES = (token: string) => [
  `/_profiler/${token}`,
  // Every built-in panel, so a new one is covered without being listed.
  ...defaultPanels.map((panel) => `/_profiler/${token}?panel=${panel.name}`),
  `/_profiler/${token}.json`,
  `/_profiler/${token}/exception`,
  `/_profiler/${token}/compare/latest`,
  `/_profiler/latest/compare/${token}.json`,
  '/_profiler/search?limit=100',
  '/_profiler/search.json?limit=100',
];

describe('safety', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({ TRUSTED_PROXIES: '10.0.0.0/8' });
  });
  after(() => app.close());
  beforeEach(async () => {
    await app.profiler!.settled();
    await app.profiler!.storage.purge();
  });

  test('a canary secret sent in headers, query and body appears nowhere in storage or pages', async () => {
    // The firewall refuses these credentials (401), but only after the profiler has seen them.
    const refused = await app.inject({
      method: 'POST',
      url: `/echo?api_key=${CANARY}-q2`,
      headers: { authorization: `Bearer ${CANARY}-auth`, 'proxy-authorization': `Basic ${CANARY}-proxy`, 'x-api-key': `${CANARY}-key` },
      payload: { password: `${CANARY}-pw2` },
    });
    assert.equal(refused.statusCode, 401);
    const res = await app.inject({
      method: 'POST',
      url: `/echo?token=${CANARY}-q&page=1`,
      headers: { cookie: `sid=${CANARY}-cookie; theme=dark` },
      payload: { title: 'Dune', password: `${CANARY}-pw`, nested: { client_secret: `${CANARY}-secret`, api_key: `${CANARY}-apikey` } },
    });
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.includes(CANARY), 'the app itself still gets the values (and echoes them: the response is redacted too)');
    const bad = await app.inject({ url: `/missing?password=${CANARY}-404`, headers: { accept: BROWSER, cookie: `sid=${CANARY}-c2` } });
    assert.equal(bad.statusCode, 404);

    const stored = JSON.stringify(await allRecords(app));
    assert.equal((await allRecords(app)).length, 5);
    assert.ok(!stored.includes(CANARY), 'no canary in storage');
    assert.ok(!JSON.stringify(await allProfiles(app)).includes(CANARY), 'no canary in a profile read back');
    assert.ok(stored.includes('[redacted]'));
    const p = (await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json();
    assert.equal(p.url, 'http://localhost:80/echo?token=[redacted]&page=1');
    assert.equal(p.collectors.request.headers.cookie, '[redacted]');
    const r = (await app.inject({ url: `/_profiler/${refused.headers['x-debug-token']}.json` })).json();
    assert.equal(r.collectors.request.headers.authorization, '[redacted]');
    assert.equal(r.collectors.request.headers['proxy-authorization'], '[redacted]');
    assert.equal(r.collectors.request.headers['x-api-key'], '[redacted]');
    assert.equal(p.collectors.request.query.token, '[redacted]');
    assert.equal(p.collectors.request.query.page, '1');
    assert.equal(JSON.parse(p.collectors.request.body.text).title, 'Dune');

    for (const token of [res.headers['x-debug-token'] as string, bad.headers['x-debug-token'] as string, refused.headers['x-debug-token'] as string]) {
      for (const url of PAGES(token)) {
        const page = await app.inject({ url });
        assert.equal(page.statusCode, 200, url);
        assert.ok(!page.body.includes(CANARY), `no canary in ${url}`);
      }
    }
  });

  test('a <script> sent in the URL, headers and body is shown escaped, never as markup', async () => {
    const script = '<script>alert(1)</script>';
    const res = await app.inject({
      method: 'POST',
      url: `/echo?q=${encodeURIComponent(script)}&raw=<script>x</script>`,
      headers: { 'x-note': script, 'user-agent': `"><img src=x onerror=alert(1)>` },
      payload: { title: script },
    });
    const bad = await app.inject({ url: `/<script>alert(2)</script>`, headers: { accept: BROWSER, referer: script } });
    assert.equal(bad.statusCode, 404);
    for (const token of [res.headers['x-debug-token'] as string, bad.headers['x-debug-token'] as string]) {
      for (const url of PAGES(token).filter((u) => !u.includes('.json'))) {
        const page = await app.inject({ url });
        assert.equal(page.statusCode, 200, url);
        assert.doesNotMatch(page.body, /<script>|<img src=x/i, url);
      }
    }
    const request = await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}?panel=request` });
    assert.ok(request.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(request.body.includes('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'));
    const listing = await app.inject({ url: '/_profiler/search' });
    // light-my-request percent-encodes the path; the referer arrives raw and is escaped.
    assert.ok(listing.body.includes('http://localhost:80/%3Cscript%3Ealert(2)%3C/script%3E'));
    assert.doesNotMatch(listing.body, /<script>/);
    const logs = await app.inject({ url: `/_profiler/${bad.headers['x-debug-token']}?panel=logs` });
    assert.ok(logs.body.includes('(from &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;)'));
  });

  test('the client IP is recorded in IPv4 form, through trusted proxies', async () => {
    await app.inject({ url: '/hello', remoteAddress: '::ffff:127.0.0.1' });
    await app.inject({ url: '/hello', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': '203.0.113.9' } });
    const ips = (await allProfiles(app)).map((p) => p!.ip);
    assert.deepEqual(ips, ['203.0.113.9', '127.0.0.1']);
    const found = (await app.inject({ url: '/_profiler/search.json?ip=203.0.113.9' })).json();
    assert.equal(found.count, 1);
  });
});

describe('safety of an error sub-request', () => {
  for (const dsn of ['memory:', 'sqlite']) {
    test(`a secret from the request body echoed by the error is scrubbed from the sub-request too (${dsn})`, async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'trellis-safety-'));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const app = await profilerApp({ PROFILER_DSN: dsn === 'memory:' ? dsn : `sqlite:${join(dir, 'p.db')}` }, {}, (a) => {
        a.post('/save', async (request) => {
          throw new Error(`Could not save the account of ${(request.body as { password: string }).password}`);
        });
      });
      try {
        const res = await app.inject({ method: 'POST', url: '/save', payload: { password: `${CANARY}-echoed` }, headers: { accept: BROWSER } });
        assert.equal(res.statusCode, 500);
        const records = await allRecords(app);
        assert.equal(records.length, 2, 'the request and its error sub-request');
        assert.ok(!JSON.stringify(records).includes(CANARY), JSON.stringify(records).slice(0, 400));
        for (const record of records) {
          for (const url of PAGES(record!.token)) assert.ok(!(await app.inject({ url })).body.includes(CANARY), url);
        }
      } finally {
        await app.close();
      }
    });
  }
});

describe('access gate', () => {
  test('only loopback clients open the profiler; others get the ordinary 404, whatever the method', async () => {
    const app = await profilerApp();
    try {
      await app.inject({ url: '/hello' });
      for (const remoteAddress of ['127.0.0.1', '::1', '127.8.9.1']) {
        assert.equal((await app.inject({ url: '/_profiler/latest', remoteAddress })).statusCode, 200, remoteAddress);
      }
      const ordinary = await app.inject({ url: '/_nothing/latest', remoteAddress: '192.0.2.7' });
      for (const [method, url] of [['GET', '/_profiler/latest'], ['HEAD', '/_profiler/'], ['POST', '/_profiler/latest'], ['GET', '/_profiler/search.json'], ['DELETE', '/_profiler/abc123/exception.css']] as const) {
        const res = await app.inject({ method, url, remoteAddress: '192.0.2.7' });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.equal(res.headers.allow, undefined);
        if (method !== 'HEAD') {
          assert.equal(res.json().detail, `No route found for "${method} ${url}"`);
          // The very answer an unknown path gets (the app's 404 handler), but for Fastify's frames.
          const unknown = await app.inject({ method, url: url.replace('/_profiler', '/_nothing'), remoteAddress: '192.0.2.7' });
          const withoutTrace = (body: string) => JSON.stringify({ ...JSON.parse(body), exceptions: JSON.parse(body).exceptions.map((e: { trace: unknown }) => ({ ...e, trace: [] })) });
          assert.equal(withoutTrace(res.body), withoutTrace(unknown.body.replaceAll('/_nothing', '/_profiler')));
          assert.deepEqual(Object.keys(res.json()), Object.keys(ordinary.json()));
          assert.doesNotMatch(res.body, /profiler-/);
        }
      }
    } finally {
      await app.close();
    }
  });

  test('PROFILER_ALLOW opens it to listed addresses and networks', async () => {
    const app = await profilerApp({ PROFILER_ALLOW: '192.0.2.0/24,198.51.100.4' });
    try {
      assert.equal((await app.inject({ url: '/_profiler/search', remoteAddress: '192.0.2.77' })).statusCode, 200);
      assert.equal((await app.inject({ url: '/_profiler/search', remoteAddress: '198.51.100.4' })).statusCode, 200);
      assert.equal((await app.inject({ url: '/_profiler/search', remoteAddress: '198.51.100.5' })).statusCode, 404);
    } finally {
      await app.close();
    }
  });
});
