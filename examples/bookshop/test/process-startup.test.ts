// The README's promise, checked as a process: `npm start` runs this entrypoint from the repo root.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openTestSchema, postgresForTests, tcpProxy } from 'trellis/testing';
import { ENV, MAIN, ROOT, startBookshop } from './bookshop-process.ts';

describe('the bookshop process', () => {
  let server: ReturnType<typeof startBookshop>;
  let base: string;
  before(async () => {
    server = startBookshop(ENV);
    base = await server.url;
  });
  after(async () => {
    await server.stop();
  });

  test('serves on 127.0.0.1 in debug and answers /robots.txt with the exact 404, for browsers and API clients', async () => {
    const html = await fetch(`${base}/robots.txt`, { headers: { accept: 'text/html' } });
    assert.equal(html.status, 404);
    assert.match(await html.text(), /<title>No route found for &quot;GET \/robots\.txt&quot; \(404 Not Found\)<\/title>/);
    const json = await fetch(`${base}/robots.txt`, { headers: { accept: 'application/json' } });
    assert.equal(json.status, 404);
    assert.equal(((await json.json()) as { detail: string }).detail, 'No route found for "GET /robots.txt"');
  });

  test('a wrong method on an existing path is 405 with Allow; a bad Host is 400', async () => {
    const res = await fetch(`${base}/`, { method: 'DELETE' });
    assert.equal(res.status, 405);
    assert.ok(res.headers.get('allow')?.startsWith('GET, HEAD'));
    const { port } = new URL(base);
    const raw = await new Promise<string>((resolve, reject) => {
      import('node:net').then(({ connect }) => {
        const socket = connect({ port: Number(port), host: '127.0.0.1' }, () => socket.end('GET / HTTP/1.1\r\nHost: exa mple.com\r\nAccept: application/json\r\nConnection: close\r\n\r\n'));
        let data = '';
        socket.on('data', (c) => (data += c));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      }, reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400 Bad Request/);
    assert.ok(raw.includes('Invalid Host \\"exa mple.com\\".'));
  });
});

test('a bad configuration value stops startup with one line naming the variable', async () => {
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...ENV, PORT: 'eighty' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c));
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  assert.equal(err, 'Configuration error: PORT: expected a whole number from 0 to 65535, got "eighty"\n');
});

test('an unreachable database: one line saying where and why, retries within DATABASE_WAIT, then exit 1 with no stack', async () => {
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...ENV, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test', DATABASE_WAIT: '1s' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c));
  const started = Date.now();
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  assert.ok(Date.now() - started >= 1000, 'it retried for the wait');
  assert.equal(
    err,
    'Database at 127.0.0.1:1 is unreachable (ECONNREFUSED); retrying for up to 1 s.\n' +
      'Database error: cannot reach the database at 127.0.0.1:1 (ECONNREFUSED) after 1 s (DATABASE_URL; DATABASE_WAIT sets how long to wait).\n',
  );
});

test('a server that accepts connections and never answers: the wait still ends at DATABASE_WAIT', async (t) => {
  const { createServer } = await import('node:net');
  // The wait starts with the first connection: timed from there, a slow start (type stripping on a
  // loaded machine) is not counted against the bound.
  let firstConnection = 0;
  const silent = createServer((socket) => {
    firstConnection ||= Date.now();
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.after(() => silent.close());
  const port = (silent.address() as { port: number }).port;
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...ENV, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`, DATABASE_WAIT: '2s' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c));
  const [code] = await once(child, 'exit');
  const took = Date.now() - firstConnection;
  assert.equal(code, 1);
  assert.ok(firstConnection > 0, 'it tried to connect');
  assert.ok(took >= 1900 && took < 4500, `exited ${took} ms after its first try (pg's own connection timeout is 5 s)`);
  assert.match(err, new RegExp(`^Database error: cannot reach the database at 127\\.0\\.0\\.1:${port} \\((ETIMEDOUT|no answer|timeout exceeded when trying to connect)\\) after 2 s \\(DATABASE_URL; DATABASE_WAIT sets how long to wait\\)\\.\\n$`, 'm'));
});

test('a database that does not exist on a server that answers: one line naming it, at once, exit 1 with no stack', async (t) => {
  const pg = await postgresForTests();
  if (pg.url === null) return t.skip(pg.skip);
  const url = new URL(pg.url);
  url.pathname = '/trellis_no_such_database';
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...ENV, DATABASE_URL: url.toString(), DATABASE_WAIT: '30s' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c));
  const started = Date.now();
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  assert.ok(Date.now() - started < 20_000, 'no waiting helps: it stops at once');
  assert.equal(err, `Database error: the database "trellis_no_such_database" does not exist at ${url.host} (DATABASE_URL): create it first (createdb trellis_no_such_database).\n`);
});

test('a database that comes up during the wait: the bookshop starts', async (t) => {
  const pg = await postgresForTests();
  if (pg.url === null) return t.skip(pg.skip);
  const proxy = await tcpProxy(pg.url, 5432);
  const schema = await openTestSchema('bookshop_wait');
  proxy.cut();
  const server = startBookshop({ ...ENV, DATABASE_URL: proxy.url, DATABASE_WAIT: '20s', PGOPTIONS: `-c search_path=${schema.schema}` });
  try {
    // Restored once the process has said it waits (loading the app takes a while under load).
    for (let i = 0; i < 200 && !/is unreachable/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 100));
    await proxy.restore();
    const base = await server.url;
    assert.equal((await fetch(`${base}/books/1`)).status, 200);
    assert.match(server.output(), /Database at 127\.0\.0\.1:\d+ is unreachable \(ECONNREFUSED\); retrying for up to 20 s\./);
  } finally {
    await server.stop();
    await schema.close();
    await proxy.close();
  }
});

test('a port another process holds: one line naming HOST and PORT, exit 1 with no stack', async (t) => {
  const { createServer } = await import('node:net');
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.after(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...ENV, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c));
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  assert.equal(err, `Cannot listen: 127.0.0.1:${port} is already in use by another process (HOST, PORT).\n`);
});

test('a migration that fails: one line naming it and the reason, exit 1 with no stack', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bookshop-migration-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The first migration's first table is there already (made by hand, or by another tool).
  const db = new DatabaseSync(join(dir, 'data.db'));
  db.exec('create table users (id integer primary key)');
  db.close();
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: { ...ENV, DATABASE_URL: `sqlite:${join(dir, 'data.db')}` }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c));
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  assert.equal(err, 'Migration "001-initial-schema" failed: table "users" already exists\n');
});
