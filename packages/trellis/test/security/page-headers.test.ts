/**
 * Every HTML page the framework renders carries a strict Content-Security-Policy whose only
 * allowances are the page's own inline stylesheet, by hash, and on profiler pages the copy
 * buttons' script file, by hash (issue 17), or on a page with the web debug toolbar its script and
 * stylesheet by that response's nonce; no page has an inline script, an inline style
 * attribute or an event handler; nothing may frame them; and every response is `nosniff`
 * (issue 13, defect 8).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { BROWSER, profilerApp } from '../profiler/profiler-app.ts';
import { COPY_SCRIPT_INTEGRITY, COPY_SCRIPT_PATH } from '../../src/profiler/export/copy-script.ts';

function styleHashes(csp: string): string[] {
  const directive = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('style-src '));
  return directive ? directive.slice('style-src '.length).split(' ') : [];
}

/** The page's CSP admits exactly what the page needs: its inline stylesheets, nothing else. */
function assertStrictPage(r: LightMyRequestResponse, what: string): void {
  const csp = r.headers['content-security-policy'];
  assert.equal(typeof csp, 'string', `${what}: a Content-Security-Policy`);
  const policy = csp as string;
  for (const directive of ["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'", 'img-src data:']) {
    assert.ok(policy.split('; ').includes(directive), `${what}: ${directive} in ${policy}`);
  }
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/, `${what}: nothing loose`);
  // Scripts: only files loaded with integrity, by hash (the profiler's copy button), or the web
  // debug toolbar's file by this response's nonce: no 'self', no host, no inline.
  const scripts = policy.split('; ').find((d) => d.startsWith('script-src '));
  const toolbar = /<div id="trellis-wdt" data-token="[0-9a-f]{6}"><\/div><script src="\/_wdt\/toolbar\.js" nonce="([A-Za-z0-9_-]{22})" async><\/script>\n/.exec(r.body);
  if (toolbar) {
    assert.equal(scripts, `script-src 'nonce-${toolbar[1]}'`, `${what}: the toolbar's script by its nonce, nothing else`);
    assert.ok(styleHashes(policy).includes(`'nonce-${toolbar[1]}'`), `${what}: the toolbar's stylesheet by the same nonce`);
    assert.ok(policy.split('; ').includes("connect-src 'self'"), `${what}: the toolbar fetches its fragment from this origin`);
  } else assert.ok(scripts === undefined || scripts === `script-src '${COPY_SCRIPT_INTEGRITY}'`, `${what}: ${scripts}`);
  assert.equal(r.headers['x-frame-options'], 'DENY', what);
  assert.equal(r.headers['referrer-policy'], 'no-referrer', what);
  assert.equal(r.headers['x-content-type-options'], 'nosniff', what);
  if (!String(r.headers['content-type']).startsWith('text/html')) return;
  const allowed = styleHashes(policy);
  for (const [, css] of r.body.matchAll(/<style>([\s\S]*?)<\/style>/g)) {
    const hash = `'sha256-${createHash('sha256').update(css!).digest('base64')}'`;
    assert.ok(allowed.includes(hash), `${what}: its <style> is allowed by ${hash}`);
  }
  // The one script a page may load is the copy script, with the integrity the policy lists.
  const body = r.body.replace(`<script src="${COPY_SCRIPT_PATH}" integrity="${COPY_SCRIPT_INTEGRITY}" defer></script>`, '').replace(toolbar?.[0] ?? '\0', '');
  if (r.body.includes(COPY_SCRIPT_PATH)) assert.ok(scripts === `script-src '${COPY_SCRIPT_INTEGRITY}'`, `${what}: loads the copy script under a policy allowing it`);
  assert.doesNotMatch(body, /<script|\sstyle=|\son[a-z]+=|javascript:/i, `${what}: no other script, no inline style attribute or handler`);
}

describe('security headers on the profiler and error pages (debug)', () => {
  let app: FastifyInstance;
  let token: string;
  let failing: string;
  before(async () => {
    app = await profilerApp({}, {}, (a) => {
      a.get('/boom', async () => {
        throw new Error('boom <b>');
      });
    });
    const hello = await app.inject({ url: '/hello' });
    token = hello.headers['x-debug-token'] as string;
    failing = (await app.inject({ url: '/boom', headers: { accept: BROWSER } })).headers['x-debug-token'] as string;
  });
  after(() => app.close());

  test('every profiler route: CSP, DENY, no-referrer, nosniff, no-cache private, noindex', async () => {
    const paths = [
      '/_profiler', '/_profiler/', '/_profiler/search?limit=100', '/_profiler/search.json', '/_profiler/search_bar', '/_profiler/latest',
      `/_profiler/${token}`, `/_profiler/${token}.json`, `/_profiler/${token}.har`, '/_profiler/copy.js', `/_profiler/${failing}/exception`, `/_profiler/${failing}/exception.css`, '/_profiler/abcdef',
      ...['request', 'response', 'logs', 'time', 'cpu', 'exception', 'nope'].map((panel) => `/_profiler/${failing}?panel=${panel}`),
    ];
    for (const url of paths) {
      const r = await app.inject({ url, headers: { accept: BROWSER } });
      assert.ok(r.statusCode < 500, `${url}: ${r.statusCode}`);
      assertStrictPage(r, url);
      assert.equal(r.headers['cache-control'], 'no-cache, private', url);
      assert.equal(r.headers['x-robots-tag'], 'noindex', url);
    }
  });

  test('the debug exception page: the same policy, its stylesheet allowed by hash; with the toolbar, its nonce only', async () => {
    const r = await app.inject({ url: '/boom', headers: { accept: BROWSER } });
    assert.equal(r.statusCode, 500);
    assert.match(r.body, /<div id="trellis-wdt"/, 'a loopback client gets the toolbar');
    assert.match(r.body, /boom &lt;b&gt;/);
    assertStrictPage(r, 'debug 500 page');
    const notFound = await app.inject({ url: '/nowhere', headers: { accept: BROWSER } });
    assert.equal(notFound.statusCode, 404);
    assertStrictPage(notFound, 'debug 404 page');
  });

  test('nosniff on every response: JSON, problem+json, a rejected Host', async () => {
    for (const r of [
      await app.inject({ url: '/hello' }),
      await app.inject({ url: '/nowhere' }),
      await app.inject({ url: '/hello', headers: { host: 'exa<mple.com' } }),
      await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{' }),
    ]) {
      assert.equal(r.headers['x-content-type-options'], 'nosniff', `${r.statusCode} ${r.body.slice(0, 60)}`);
    }
  });
});

test('security headers on the production error page', async () => {
  const app = await profilerApp({ NODE_ENV: 'production', APP_DEBUG: '0' });
  try {
    const r = await app.inject({ url: '/nowhere', headers: { accept: BROWSER } });
    assert.equal(r.statusCode, 404);
    assert.match(r.body, /<h1>404 Not Found<\/h1>/);
    assertStrictPage(r, 'production 404 page');
    const json = await app.inject({ url: '/hello' });
    assert.equal(json.headers['x-content-type-options'], 'nosniff');
  } finally {
    await app.close();
  }
});
