/**
 * The bookshop as a process under write load (issue 14, item 6): killed with SIGKILL mid-load it
 * restarts on an intact SQLite file holding every write it answered 201; stopped with SIGTERM
 * mid-load it answers every request it accepted and stores every queued profile first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENV, startBookshop } from './bookshop-process.ts';

const JWT_SECRET = 'crash-test-crash-test-crash-test-crash-0';

async function adminToken(base: string): Promise<string> {
  const res = await fetch(`${base}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@bookshop.test', password: 'admin-password' }) });
  assert.equal(res.status, 200);
  return ((await res.json()) as { token: string }).token;
}

/** Writers posting authors until `stop()`; collects the IRIs answered 201. */
function writeLoad(base: string, token: string, writers: number) {
  const created: string[] = [];
  const failures: string[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: writers }, async () => {
    while (running) {
      try {
        const res = await fetch(`${base}/authors`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/ld+json', accept: 'application/ld+json' },
          body: JSON.stringify({ name: `Load author ${n++}` }),
        });
        const body = (await res.json()) as { '@id'?: string };
        if (res.status === 201) created.push(body['@id']!);
        else failures.push(String(res.status));
      } catch {
        // The connection went with the process: that write was never acknowledged.
        if (!running) break;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  });
  return {
    created,
    failures,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

test('kill -9 during a write load: the restart finds an intact file with every acknowledged write', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-crash-'));
  const env = { ...ENV, JWT_SECRET, LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${join(dir, 'data.db')}`, PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}` };
  try {
    const first = startBookshop(env);
    const base = await first.url;
    const load = writeLoad(base, await adminToken(base), 8);
    await new Promise((r) => setTimeout(r, 1500));
    first.child.kill('SIGKILL');
    await load.stop();
    assert.ok(load.created.length > 10, `writes were acknowledged before the kill: ${load.created.length}`);

    const db = new DatabaseSync(join(dir, 'data.db'));
    assert.deepEqual(db.prepare('PRAGMA integrity_check').all().map((row) => ({ ...row })), [{ integrity_check: 'ok' }]);
    db.close();

    const second = startBookshop(env);
    try {
      const again = await second.url;
      for (const iri of load.created) {
        const res = await fetch(`${again}${iri}`, { headers: { accept: 'application/ld+json' } });
        assert.equal(res.status, 200, `${iri} was answered 201 before the kill but is missing`);
      }
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SIGTERM during a load: every accepted request is answered and every queued profile is stored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-term-'));
  const env = { ...ENV, JWT_SECRET, LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${join(dir, 'data.db')}`, PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}` };
  try {
    const server = startBookshop(env);
    const base = await server.url;
    const load = writeLoad(base, await adminToken(base), 8);
    await new Promise((r) => setTimeout(r, 1000));
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    assert.equal(await exited, 0, server.output());
    await load.stop();
    // Accepted requests were answered: nothing but 201s (and 503s for requests that arrived while closing).
    assert.deepEqual(load.failures.filter((s) => s !== '503'), []);

    const profiles = new DatabaseSync(join(dir, 'profiler.db'));
    const stored = new Set((profiles.prepare('SELECT url FROM profiles').all() as { url: string }[]).map((r) => new URL(r.url).pathname));
    profiles.close();
    const data = new DatabaseSync(join(dir, 'data.db'));
    const authors = data.prepare("SELECT count(*) AS n FROM authors WHERE name LIKE 'Load author %'").get() as { n: number };
    data.close();
    assert.equal(authors.n, load.created.length, 'every 201 is in the database, and nothing else');
    const profiled = new DatabaseSync(join(dir, 'profiler.db'));
    const posts = profiled.prepare("SELECT count(*) AS n FROM profiles WHERE method = 'POST' AND status = 201").get() as { n: number };
    profiled.close();
    assert.ok(stored.has('/authors'));
    assert.equal(posts.n, load.created.length, 'every answered write has its profile');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
