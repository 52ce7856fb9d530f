// Light, dark or the system's, for every profiler page: picked through a link, remembered in a
// cookie scoped to /_profiler, put on the page's root; the switch never redirects off the profiler.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { BROWSER, profilerApp } from './profiler-app.ts';

describe('profiler theme', () => {
  let app: FastifyInstance;
  let token: string;
  before(async () => {
    app = await profilerApp();
    token = (await app.inject({ url: '/hello' })).headers['x-debug-token'] as string;
    await app.profiler!.settled();
  });
  after(() => app.close());

  test('picking dark: a year-long cookie for /_profiler only, 303 back to the page it was picked on', async () => {
    const res = await app.inject({ url: '/_profiler/theme/dark', headers: { referer: `http://localhost:80/_profiler/${token}?panel=time` } });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/_profiler/${token}?panel=time`);
    assert.equal(res.headers['set-cookie'], 'trellis_profiler_theme=dark; Path=/_profiler; Max-Age=31536000; SameSite=Lax; HttpOnly');
  });

  test('auto forgets the pick; a Referer from elsewhere goes to the profiler home', async () => {
    const res = await app.inject({ url: '/_profiler/theme/auto', headers: { referer: 'https://evil.example/_profiler/' } });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/_profiler/');
    assert.equal(res.headers['set-cookie'], 'trellis_profiler_theme=auto; Path=/_profiler; Max-Age=0; SameSite=Lax; HttpOnly');
  });

  test('every profiler page carries the picked theme on its root; none without a pick or with a forged one', async () => {
    for (const url of [`/_profiler/${token}`, `/_profiler/${token}?panel=db`, '/_profiler/search', '/_profiler/000000']) {
      for (const [cookie, root] of [
        ['trellis_profiler_theme=dark', '<html lang="en" data-theme="dark">'],
        ['trellis_profiler_theme=light', '<html lang="en" data-theme="light">'],
        ['trellis_profiler_theme=auto', '<html lang="en">'],
        ['trellis_profiler_theme="><script>alert(1)</script>', '<html lang="en">'],
        ['', '<html lang="en">'],
      ] as const) {
        const res = await app.inject({ url, headers: { accept: BROWSER, ...(cookie ? { cookie } : {}) } });
        assert.ok(res.body.startsWith(`<!DOCTYPE html>\n${root}`), `${url} ${cookie}: ${res.body.slice(0, 60)}`);
        // No script but the profiler's own copy script (a file, allowed by its hash).
        assert.doesNotMatch(res.body, /<script(?! src="\/_profiler\/copy\.js" integrity="sha256-)/);
      }
    }
  });

  test('the switch is in the top bar of every page, its links alone sending a same-origin Referer', async () => {
    const body = (await app.inject({ url: `/_profiler/${token}` })).body;
    assert.match(body, /<span class="pf-theme" role="group" aria-label="Theme"><a href="\/_profiler\/theme\/light" referrerpolicy="same-origin" data-theme="light" title="Light theme">☀<\/a><a href="\/_profiler\/theme\/dark" referrerpolicy="same-origin" data-theme="dark" title="Dark theme">☾<\/a><a href="\/_profiler\/theme\/auto" referrerpolicy="same-origin" data-theme="auto" title="Follow the system">A<\/a><\/span>/);
  });

  test('an unknown theme is an unknown route: 404 with the exact message', async () => {
    const res = await app.inject({ url: '/_profiler/theme/purple', headers: { accept: 'application/json' } });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().detail, 'No route found for "GET /_profiler/theme/purple"');
  });
});

describe('profiler theme on the live page', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp();
  });
  after(() => app.close());

  test('the live page, which has a policy of its own, carries the picked theme too', async () => {
    const res = await app.inject({ url: '/_profiler/live', headers: { accept: BROWSER, cookie: 'trellis_profiler_theme=dark' } });
    assert.equal(res.statusCode, 200);
    assert.ok(res.body.startsWith('<!DOCTYPE html>\n<html lang="en" data-theme="dark">'), res.body.slice(0, 60));
    assert.match(String(res.headers['content-security-policy']), /connect-src 'self'/);
  });
});
