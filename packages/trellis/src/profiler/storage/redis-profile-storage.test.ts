import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { redisForTests } from '../../testing/services.ts';
import { RedisProfileStorage } from './redis-profile-storage.ts';
import { profileStorageContract } from './profile-storage.contract.ts';
import { recordOf } from '../stored-profile.ts';
import { syntheticProfiles } from './synthetic-profiles.ts';

const service = await redisForTests();
let client: Redis | null = null;
let n = 0;

before(() => {
  if (service.url) client = new Redis(service.url, { maxRetriesPerRequest: 1 });
});
after(async () => {
  await client?.quit();
});

profileStorageContract(
  'redis',
  async ({ now, ...retention }) => new RedisProfileStorage(client!, { ...retention, now, prefix: `trellis-test:profiler-contract:${process.pid}:${n++}:` }),
  { skip: service.skip },
);

describe('redis index sets', { skip: service.skip }, () => {
  test('a set written to drops the entries of profiles retention removed, in the same write', async () => {
    const prefix = `trellis-test:profiler-index:${process.pid}:`;
    const store = new RedisProfileStorage(client!, { maxProfiles: 3, ttlSeconds: 86400, prefix });
    try {
      const now = Date.now();
      for (const [i, profile] of [...syntheticProfiles(8, { end: now })].entries()) await store.write(recordOf({ ...profile, method: 'GET', statusCode: 200, ip: '10.0.0.1', parent: null, time: now - 100 + i }));
      assert.equal(await client!.zcard(`${prefix}time`), 3);
      // Trimmed when written to: at most what was kept, plus the one batch written since.
      for (const key of ['method:GET', 'status:200', 'ip:10.0.0.1']) assert.ok((await client!.zcard(`${prefix}${key}`)) <= 4, key);
      assert.deepEqual((await store.find({ ip: '10.0.0.1', limit: 10 })).length, 3);
    } finally {
      await store.purge();
    }
  });
});
