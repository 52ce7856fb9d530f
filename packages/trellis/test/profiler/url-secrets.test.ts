/**
 * Secrets in URLs other than the request's own query: the query of the page a request came from
 * (Referer, which a 404's message also names), pairs after a raw `#` in the request target
 * (read as parameters by the query parser), and the userinfo of an absolute-form target. Found
 * by attack passes: each was stored in profiles or written to the log in clear. Stored through the profiler thread (SQLite file), where a
 * snapshot with no secret is stored as it came: that test must see them too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createApp, createLogger } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';
import { allRecords, BROWSER } from './profiler-app.ts';

const REFERER_SECRET = 'REFSECRET123';
const FRAGMENT_SECRET = 'FRAGSECRET123';
const USERINFO_SECRET = 'USERSECRET123';

/** One request written as is on a socket (inject would drop what follows a `#`); its status line. */
function rawGet(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`));
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('end', () => resolve(answer.split('\r\n')[0]!));
    socket.on('error', reject);
  });
}

/** A debug app storing profiles in a SQLite file through the profiler thread, listening, its log kept. */
async function listening() {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-url-secrets-'));
  const lines: string[] = [];
  const config = testConfig({ LOG_LEVEL: 'debug', PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}` });
  const logger = createLogger({ level: 'debug', captureRequestRecords: true, destination: new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }) });
  const app = await createApp({ config, tls: null, logger });
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, dir, lines, port: (app.server.address() as AddressInfo).port };
}

test('a secret in the Referer query, after a raw # or in userinfo reaches neither a stored profile, its pages, nor the log', async () => {
  const { app, dir, lines, port } = await listening();
  try {

    const notFound = await app.inject({ url: '/nothere', headers: { referer: `http://127.0.0.1:${port}/reset?token=${REFERER_SECRET}&step=2` } });
    assert.equal(notFound.statusCode, 404);
    // Symfony's message names the referring page; its credential is redacted there too.
    assert.equal((notFound.json() as { detail: string }).detail, `No route found for "GET /nothere" (from "http://127.0.0.1:${port}/reset?token=[redacted]&step=2")`);
    const fromPage = await app.inject({ url: '/hello', headers: { referer: `http://127.0.0.1:${port}/login?password=${REFERER_SECRET}` } });
    assert.equal(fromPage.statusCode, 200);
    assert.equal(await rawGet(port, `/hello?itemsPerPage=1#&password=${FRAGMENT_SECRET}`), 'HTTP/1.1 200 OK');
    // An absolute-form target (RFC 9112 §3.2.2) with a password in its userinfo.
    assert.equal(await rawGet(port, `http://ann:${USERINFO_SECRET}@127.0.0.1:${port}/hello`), 'HTTP/1.1 200 OK');

    const records = await allRecords(app);
    assert.ok(records.length >= 3, `profiles stored: ${records.length}`);
    const tokens = [notFound.headers['x-debug-token'], fromPage.headers['x-debug-token']] as string[];
    for (const record of records) {
      const text = JSON.stringify(record);
      assert.equal(text.includes(REFERER_SECRET), false, `stored record ${record?.token} holds the Referer's secret`);
      assert.equal(text.includes(FRAGMENT_SECRET), false, `stored record ${record?.token} holds the secret after #`);
      assert.equal(text.includes(USERINFO_SECRET), false, `stored record ${record?.token} holds the userinfo password`);
    }
    for (const token of [...tokens, records.find((r) => r?.url.includes('#'))!.token, records.find((r) => r?.url.includes('ann:'))!.token]) {
      const pages = await Promise.all(
        ['.json', '.har', '?panel=request', '?panel=exception', '?panel=logs'].map(async (tail) => (await app.inject({ url: `/_profiler/${token}${tail}`, headers: { accept: tail.startsWith('.') ? '*/*' : BROWSER } })).body),
      );
      for (const page of pages) {
        assert.equal(page.includes(REFERER_SECRET) || page.includes(FRAGMENT_SECRET) || page.includes(USERINFO_SECRET), false, `a page of ${token} shows a secret`);
      }
      assert.match(pages[2]!, /\[redacted\]/, 'the request panel shows where a value was removed');
    }
    const log = lines.join('');
    assert.equal(log.includes(REFERER_SECRET), false, 'the log holds the Referer secret');
    assert.equal(log.includes(FRAGMENT_SECRET), false, 'the log holds the secret after #');
    assert.equal(log.includes(USERINFO_SECRET), false, 'the log holds the userinfo password');
    assert.match(log, new RegExp(`GET http://ann:\\[redacted\\]@127\\.0\\.0\\.1:${port}/hello 200`));
    assert.match(log, /GET \/hello\?itemsPerPage=1#&password=\[redacted\] 200/);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a short userinfo password and pairs after a raw # reach neither the request panel\'s path nor a 404 message from a route with nothing behind its name', async () => {
  const { app, dir, lines, port } = await listening();
  try {
    // Too short to be scrubbed from the whole profile by value: only where it stands can it go.
    const target = `http://ann:q7@127.0.0.1:${port}`;
    assert.equal(await rawGet(port, `${target}/hello`), 'HTTP/1.1 200 OK');
    assert.equal(await rawGet(port, `${target}/docs/assets/nope.js`), 'HTTP/1.1 404 Not Found');
    assert.equal(await rawGet(port, `/docs/assets/nope.js#&password=${FRAGMENT_SECRET}`), 'HTTP/1.1 404 Not Found');
    assert.equal(await rawGet(port, `${target}/_profiler/theme/nope`), 'HTTP/1.1 404 Not Found');

    const records = await allRecords(app);
    const hello = records.find((r) => r?.url.endsWith('/hello'))!;
    const built = (await app.inject({ url: `/_profiler/${hello.token}.json` })).json() as { collectors: { request: { path: string; url: string } } };
    assert.equal(built.collectors.request.path, '/hello');
    assert.equal(built.collectors.request.url, `http://ann:[redacted]@127.0.0.1:${port}/hello`);
    for (const record of records) {
      const text = JSON.stringify(record);
      assert.equal(text.includes('ann:q7@') || text.includes(FRAGMENT_SECRET), false, `stored record ${record?.token} holds a secret`);
    }
    const log = lines.join('');
    assert.equal(log.includes('ann:q7@') || log.includes(FRAGMENT_SECRET), false, 'the log holds a secret');
    assert.match(log, /No route found for \\"GET \/docs\/assets\/nope\.js\\"/);
    assert.match(log, /No route found for \\"GET \/_profiler\/theme\/nope\\"/);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
