import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteProfileStorage } from './sqlite-profile-storage.ts';
import { profileStorageContract } from './profile-storage.contract.ts';
import { bulkWrite } from './bulk-write.ts';
import { syntheticProfiles } from './synthetic-profiles.ts';

const dir = mkdtempSync(join(tmpdir(), 'trellis-profiler-sqlite-'));
let n = 0;
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

profileStorageContract('sqlite', async ({ now, ...retention }) => new SqliteProfileStorage(join(dir, `contract-${n++}.db`), retention, { now }));
profileStorageContract('sqlite (inline writer)', async ({ now, ...retention }) => new SqliteProfileStorage(join(dir, `contract-${n++}.db`), retention, { now, writer: 'inline' }));
profileStorageContract('sqlite (:memory:)', async ({ now, ...retention }) => new SqliteProfileStorage(':memory:', retention, { now }));

test('sqlite: every search uses an index, never a scan of the table', async () => {
  const store = new SqliteProfileStorage(join(dir, 'plans.db'), { maxProfiles: 100_000, ttlSeconds: 86400 });
  await bulkWrite(store, syntheticProfiles(2000));
  const queries = [
    { limit: 10 },
    { limit: 10, mainOnly: true },
    { limit: 10, method: 'POST' },
    { limit: 10, statusCode: 404 },
    { limit: 10, ip: '10.0.0.7' },
    { limit: 10, url: 'robots' },
    { limit: 10, url: 'robots', method: 'GET', mainOnly: true },
    { limit: 10, url: 'ro', statusCode: 404 },
    { limit: 10, method: 'DELETE', statusCode: 500, ip: '10.0.0.7' },
    { limit: 10, token: '0000aa' },
    { limit: 10, start: Date.now() - 5000, end: Date.now() },
  ];
  for (const q of queries) {
    const lines = store.explain(q);
    const plan = lines.join(' | ');
    // A SCAN may only read a bounded co-routine (its subquery walks an index with a LIMIT) or the FTS index.
    const coroutines = lines.filter((l) => l.startsWith('CO-ROUTINE ')).map((l) => l.slice('CO-ROUTINE '.length));
    for (const line of lines.filter((l) => l.startsWith('SCAN '))) {
      const target = line.slice('SCAN '.length).split(' ')[0]!;
      assert.ok(coroutines.includes(target) || line.includes('VIRTUAL TABLE'), `${JSON.stringify(q)}: ${plan}`);
    }
    assert.match(plan, /USING (COVERING )?INDEX|PRIMARY KEY/, `${JSON.stringify(q)}: ${plan}`);
  }
  const robots = await store.find({ limit: 10, url: 'robots' });
  assert.equal(robots.length, 10);
  assert.ok(robots.every((s) => s.url.includes('robots')));
  assert.deepEqual(robots, [...robots].sort((a, b) => b.time - a.time), 'newest first');
  const combined = await store.find({ limit: 5, url: 'robots', mainOnly: true });
  assert.equal(combined.length, 5);
  assert.ok(combined.every((s) => s.url.includes('robots') && s.parent === null));
  assert.deepEqual(combined, [...combined].sort((a, b) => b.time - a.time), 'newest first');
  await store.close();
});
