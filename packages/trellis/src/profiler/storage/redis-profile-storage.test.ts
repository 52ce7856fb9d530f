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

  test('a search walks only what retention kept, whatever stale entries a set holds, and a wholly stale set goes', async () => {
    const prefix = `trellis-test:profiler-stale:${process.pid}:`;
    // One page of entries per search (200): a set walked from its stale end would find nothing.
    const store = new RedisProfileStorage(client!, { maxProfiles: 600, ttlSeconds: 86400, prefix, maxScan: 200 });
    try {
      const now = Date.now();
      let i = 0;
      const [template] = [...syntheticProfiles(1)];
      const write = (ip: string, count: number) =>
        Promise.all(Array.from({ length: count }, () => store.write(recordOf({ ...template!, token: `a${(i++).toString(16).padStart(5, '0')}`, ip, method: 'GET', statusCode: 404, parent: null, time: now - 10_000 + i }))));
      for (let n = 0; n < 40; n++) await write('10.0.0.1', 20);
      for (let n = 0; n < 20; n++) await write('10.0.0.2', 20);
      // 10.0.0.1's set still holds ~400 dropped profiles: by size it looks no smaller than 404's.
      assert.ok((await client!.zcard(`${prefix}ip:10.0.0.1`)) >= (await client!.zcard(`${prefix}status:404`)));
      const found = await store.find({ ip: '10.0.0.1', statusCode: 404, limit: 10 });
      assert.deepEqual(found.map((s) => s.token), Array.from({ length: 10 }, (_, n) => `a${(799 - n).toString(16).padStart(5, '0')}`));
      for (let n = 0; n < 31; n++) await write('10.0.0.2', 20);
      assert.equal(await client!.exists(`${prefix}ip:10.0.0.1`), 0);
      assert.deepEqual((await client!.zrange(`${prefix}indexes`, 0, -1)).sort(), ['ip:10.0.0.2', 'method:GET', 'status:404']);
    } finally {
      await store.purge();
    }
  });
});

describe('redis writes retried after a lost reply', { skip: service.skip }, () => {
  test('writing the very same profile again is stored once and is not a clash; another profile under its token is', async () => {
    const prefix = `trellis-test:profiler-retry:${process.pid}:`;
    const store = new RedisProfileStorage(client!, { maxProfiles: 100, ttlSeconds: 86400, prefix });
    try {
      const [profile] = [...syntheticProfiles(1, { end: Date.now() })];
      const record = recordOf({ ...profile!, token: 'abc123', parent: null });
      await store.write(record);
      await store.write(record);
      assert.equal((await store.find({ limit: 10 })).length, 1);
      await assert.rejects(store.write(recordOf({ ...profile!, token: 'abc123', parent: null, method: 'DELETE' })), { name: 'TokenTakenError' });
    } finally {
      await store.purge();
    }
  });
});

describe('token slots of processes sharing a Redis store', { skip: service.skip }, () => {
  test('each store claims a slot no other holds; with every slot held, none; a closed one gives its slot back', async () => {
    const prefix = `trellis-test:profiler-slots:${process.pid}:`;
    // Clients of their own: close() quits a client the store owns, as the profiler's does.
    const open = () => new RedisProfileStorage(new Redis(service.url!, { maxRetriesPerRequest: 1 }), { maxProfiles: 10, ttlSeconds: 60, prefix, ownsClient: true });
    const stores = [open(), open(), open()];
    const slots: (number | null)[][] = [[], [], []];
    try {
      for (const [i, store] of stores.entries()) await store.claimIssuerSlot(2, (slot) => slots[i]!.push(slot));
      const held = slots.map((s) => s.at(-1));
      assert.deepEqual(held.slice(0, 2).sort(), [0, 1]);
      assert.equal(held[2], null, 'two slots, three stores: the third draws from the whole space');
      const freed = held[0]!;
      await stores[0]!.close();
      assert.equal(await client!.get(`${prefix}issuer-slot:${freed}`), null);
      await stores[2]!.claimIssuerSlot(2, (slot) => slots[2]!.push(slot));
      assert.equal(slots[2]!.at(-1), freed);
    } finally {
      await stores[1]!.close();
      await stores[2]!.close();
      for (const key of await client!.keys(`${prefix}*`)) await client!.del(key);
    }
  });
});

describe('purge and the token slots', { skip: service.skip }, () => {
  test('a purge deletes the profiles, not the slots the processes writing here hold', async () => {
    const prefix = `trellis-test:profiler-purge-slots:${process.pid}:`;
    const open = () => new RedisProfileStorage(new Redis(service.url!, { maxRetriesPerRequest: 1 }), { maxProfiles: 10, ttlSeconds: 60, prefix, ownsClient: true });
    const [first, second] = [open(), open()];
    const held: (number | null)[] = [null, null];
    try {
      await first.claimIssuerSlot(16, (slot) => (held[0] = slot));
      const [profile] = [...syntheticProfiles(1)];
      await first.write(recordOf(profile!));
      await first.purge();
      assert.equal(await client!.zcard(`${prefix}time`), 0, 'the profiles are gone');
      // A process starting now must not be handed the slot the first still issues from.
      await second.claimIssuerSlot(16, (slot) => (held[1] = slot));
      assert.notEqual(held[0], null);
      assert.notEqual(held[1], held[0]);
      assert.equal(await client!.exists(`${prefix}issuer-slot:${held[0]}`), 1);
    } finally {
      await first.close();
      await second.close();
      for (const key of await client!.keys(`${prefix}*`)) await client!.del(key);
    }
  });
});
