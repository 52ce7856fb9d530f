/**
 * Every error answer in debug goes through the whole lifecycle (issue 15, items 2 and 5): it is
 * profiled (X-Debug-Token, found in the search), carries the headers every response does, and its
 * debug page shows at least one stack frame for every exception in its chain, including a path
 * the router could not decode and a malformed JSON body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BROWSER, profilerApp } from '../profiler/profiler-app.ts';

const CASES: { method: string; url: string; headers?: Record<string, string>; payload?: string; status: number }[] = [
  { method: 'GET', url: '/books/%zz', status: 400 },
  { method: 'GET', url: '/%', status: 400 },
  { method: 'GET', url: '/%C3%28?x=1', status: 400 },
  { method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{bad', status: 400 },
  { method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '', status: 400 },
  { method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: 'x'.repeat(2_000_000), status: 413 },
  { method: 'POST', url: '/echo', headers: { 'content-type': 'text/csv' }, payload: 'a,b', status: 415 },
  { method: 'GET', url: '/robots.txt', status: 404 },
  { method: 'DELETE', url: '/hello', status: 405 },
  { method: 'GET', url: '/_profiler/abcdef/nope', status: 404 },
  { method: 'GET', url: '/hello', headers: { host: 'exa<mple.com' }, status: 400 },
];

test('every error is profiled, has its headers, and a frame for every exception of its chain', async () => {
  const app = await profilerApp();
  try {
    for (const c of CASES) {
      const where = `${c.method} ${c.url}`;
      const json = await app.inject({ method: c.method as 'GET', url: c.url, headers: { accept: 'application/json', ...c.headers }, ...(c.payload !== undefined && { payload: c.payload }) });
      assert.equal(json.statusCode, c.status, `${where}: ${json.body.slice(0, 200)}`);
      const token = json.headers['x-debug-token'];
      assert.match(String(token), /^[0-9a-f]{6}$/, `${where}: profiled`);
      assert.equal(json.headers['x-content-type-options'], 'nosniff', where);
      assert.ok(json.headers.link, `${where}: Link`);
      const exceptions = (json.json() as { exceptions: { class: string; trace: unknown[] }[] }).exceptions;
      assert.ok(exceptions.length >= 1, where);
      for (const e of exceptions) assert.ok(e.trace.length >= 1, `${where}: ${e.class} has no frame`);
      const html = await app.inject({ method: c.method as 'GET', url: c.url, headers: { accept: BROWSER, ...c.headers }, ...(c.payload !== undefined && { payload: c.payload }) });
      assert.doesNotMatch(html.body, /<ol class="trace">\s*<\/ol>/, `${where}: an empty trace on the page`);
      await app.profiler!.settled();
      const profile = await app.inject({ url: `/_profiler/${token}.json` });
      assert.equal(profile.statusCode, 200, `${where}: its profile`);
      const stored = profile.json() as { url: string; statusCode: number };
      assert.equal(stored.statusCode, c.status, where);
      // The URL is stored as sent, never as the router's escaped retry.
      if (c.url.includes('%')) assert.ok(stored.url.endsWith(c.url), `${where}: stored as ${stored.url}`);
    }
  } finally {
    await app.close();
  }
});
