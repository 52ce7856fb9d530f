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
    { limit: 10, token: '0000aa' },
    { limit: 10, start: Date.now() - 5000, end: Date.now() },
  ];
  for (const q of queries) {
    const plan = store.explain(q).join(' | ');
    assert.doesNotMatch(plan, /SCAN p(?! USING)|SCAN profiles(?! USING)/, `${JSON.stringify(q)}: ${plan}`);
  }
  assert.equal((await store.find({ limit: 10, url: 'robots' })).every((s) => s.url.includes('robots')), true);
  await store.close();
});
