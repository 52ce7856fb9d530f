// /_profiler/<a>/compare/<b> and its JSON twin, through the app: what the page shows of two
// stored profiles, the form's redirect, unknown and hostile tokens, and the gate.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { compareProfiles } from '../../src/profiler/compare/compare-profiles.ts';
import { readableProfile } from '../../src/profiler/readable-profile.ts';
import { BROWSER, profilerApp } from './profiler-app.ts';

describe('compare two profiles', () => {
  let app: FastifyInstance;
  let a: string;
  let b: string;
  before(async () => {
    app = await profilerApp();
    a = (await app.inject({ url: '/hello', headers: { 'x-trace': 'one' } })).headers['x-debug-token'] as string;
    b = (await app.inject({ method: 'POST', url: '/echo', headers: { 'x-trace': '<script>alert(1)</script>' }, payload: { title: 'Dune' } })).headers['x-debug-token'] as string;
    await app.profiler!.settled();
  });
  after(() => app.close());

  test('the JSON twin is the comparison of the two stored profiles', async () => {
    const res = await app.inject({ url: `/_profiler/${a}/compare/${b}.json` });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^application\/json/);
    const expected = compareProfiles(readableProfile((await app.profiler!.read(a))!), readableProfile((await app.profiler!.read(b))!));
    assert.deepEqual(res.json(), JSON.parse(JSON.stringify(expected)));
    const body = res.json();
    assert.equal(body.a.token, a);
    assert.equal(body.b.url, 'http://localhost:80/echo');
    assert.deepEqual(body.headers.request.changed.find((h: { name: string }) => h.name === 'x-trace'), { name: 'x-trace', a: 'one', b: '<script>alert(1)</script>' });
    assert.equal(body.requestBytes.b, 16);
  });

  test('the page shows both sides, the overview and the headers, escaped, under the profiler CSP', async () => {
    const res = await app.inject({ url: `/_profiler/${a}/compare/${b}`, headers: { accept: BROWSER } });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    assert.match(res.headers['content-security-policy'] as string, /default-src 'none'/);
    assert.ok(res.body.includes(`<title>Compare ${a} with ${b} – Profiler</title>`));
    assert.ok(res.body.includes(`href="/_profiler/${b}/compare/${a}">Swap A and B</a>`));
    assert.ok(res.body.includes('<th scope="row">x-trace</th><td class="mono">one</td><td class="mono">&lt;script&gt;alert(1)&lt;/script&gt;</td>'));
    assert.ok(!res.body.includes('<script>'));
    assert.ok(res.body.includes('<th scope="row">Request body</th><td class="mono">0 B</td><td class="mono">16 B</td><td class="mono"><span class="pf-worse">+16 B</span></td>'));
  });

  test('latest resolves to the newest main request; a profile compared with itself differs in nothing', async () => {
    const res = await app.inject({ url: `/_profiler/latest/compare/${b}.json` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().a.token, b);
    assert.equal(res.json().status.changed, false);
    assert.deepEqual(res.json().headers.response, { added: [], removed: [], changed: [] });
  });

  test('the profile page carries a small compare form; the form redirects to the comparison', async () => {
    const page = await app.inject({ url: `/_profiler/${a}`, headers: { accept: BROWSER } });
    assert.ok(page.body.includes(`<form class="pf-compare-form" action="/_profiler/${a}/compare" method="get">`));
    const res = await app.inject({ url: `/_profiler/${a}/compare?with=${b.toUpperCase()}%20` });
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers.location, `/_profiler/${a}/compare/${b}`);
  });

  test('an unknown token on either side is the profiler\'s 404 with its exact message', async () => {
    for (const [url, token] of [[`/_profiler/${a}/compare/ffffff.json`, 'ffffff'], [`/_profiler/000000/compare/${a}`, '000000'], [`/_profiler/${a}/compare/..%2F..%2Fetc.json`, '../../etc']] as const) {
      const res = await app.inject({ url, headers: { accept: 'application/json' } });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().detail, `Token "${token}" not found.`, url);
    }
  });

  test('hostile form values never reach the Location: a URL, a path, a huge value, an array', async () => {
    const huge = 'a'.repeat(100_000);
    for (const value of ['https://evil.example/', '%2F%2Fevil.example', '..%2F..%2Fsearch', huge, 'abc12', '']) {
      const res = await app.inject({ url: `/_profiler/${a}/compare?with=${value}`, headers: { accept: 'application/json' } });
      assert.equal(res.statusCode, 404, value.slice(0, 30));
      assert.equal(res.headers.location, undefined);
      assert.ok(res.body.length < 2000, 'the huge value is not echoed whole');
    }
    const twice = await app.inject({ url: `/_profiler/${a}/compare?with=${b}&with=${a}`, headers: { accept: 'application/json' } });
    assert.equal(twice.statusCode, 404);
    assert.equal(twice.json().detail, 'Token "" not found.');
  });

  test('a client the gate refuses gets the ordinary 404, page, JSON and form alike', async () => {
    for (const url of [`/_profiler/${a}/compare/${b}`, `/_profiler/${a}/compare/${b}.json`, `/_profiler/${a}/compare?with=${b}`]) {
      const res = await app.inject({ url, remoteAddress: '192.0.2.7', headers: { accept: 'application/json' } });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.headers.location, undefined);
      assert.doesNotMatch(res.body, /"token"|pf-compare/);
    }
  });
});
