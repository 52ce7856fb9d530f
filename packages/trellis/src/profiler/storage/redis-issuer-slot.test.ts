import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { redisForTests } from '../../testing/services.ts';
import { RedisIssuerSlot } from './redis-issuer-slot.ts';

const service = await redisForTests();

describe('a token slot held in Redis', { skip: service.skip }, () => {
  const prefix = `trellis-test:issuer-slot:${process.pid}:`;
  let client: Redis;
  before(() => {
    client = new Redis(service.url!, { maxRetriesPerRequest: 1 });
  });
  after(async () => {
    for (const key of await client.keys(`${prefix}*`)) await client.del(key);
    await client.quit();
  });

  test('is held under a lease, renewed; one lost (taken over after a pause past the lease) is told, and another claimed', async () => {
    const changes: (number | null)[] = [];
    const slot = new RedisIssuerSlot(client, prefix, 4, (index) => changes.push(index), 50);
    try {
      const index = await slot.claim();
      assert.notEqual(index, null);
      assert.deepEqual(changes, [index]);
      const key = `${prefix}issuer-slot:${index}`;
      const ttl = await client.ttl(key);
      assert.ok(ttl > 0 && ttl <= 30, `lease ${ttl} s`);
      await sleep(150);
      assert.deepEqual(changes, [index], 'renewed, not lost');
      // Another process took it over while this one was paused past its lease.
      await client.set(key, 'someone else', 'EX', 30);
      for (let i = 0; i < 40 && changes.length < 3; i++) await sleep(25);
      assert.equal(changes[1], null);
      assert.notEqual(changes[2], null);
      assert.notEqual(changes[2], index);
      assert.equal(await client.get(key), 'someone else', 'the other process keeps it');
    } finally {
      await slot.release();
    }
    assert.equal(slot.index, null);
  });

  test('release gives back only its own slot', async () => {
    const slot = new RedisIssuerSlot(client, `${prefix}own:`, 1, () => {});
    const index = await slot.claim();
    assert.equal(index, 0);
    await client.set(`${prefix}own:issuer-slot:0`, 'someone else', 'EX', 30);
    await slot.release();
    assert.equal(await client.get(`${prefix}own:issuer-slot:0`), 'someone else');
  });
});

/**
 * A Redis of a few keys for the commands a slot uses, which can be away: every command then
 * fails, as ioredis's do after their retries.
 */
function fakeRedis(away: boolean) {
  const state = { away, keys: new Map<string, string>() };
  const reach = () => {
    if (state.away) throw new Error('Connection is closed.');
  };
  const { keys } = state;
  const client = {
    incr: async (key: string) => (reach(), keys.set(key, String(Number(keys.get(key) ?? 0) + 1)), Number(keys.get(key))),
    set: async (key: string, value: string, ..._: unknown[]) => (reach(), keys.has(key) ? null : (keys.set(key, value), 'OK')),
    eval: async (_script: string, _n: number, key: string, id: string) => (reach(), keys.get(key) === id ? 1 : 0),
  };
  return { state, client };
}

test('a store away when the slot is first claimed is claimed from once it is back', async () => {
  const { state, client } = fakeRedis(true);
  const changes: (number | null)[] = [];
  const slot = new RedisIssuerSlot(client as never, 'p:', 4, (index) => changes.push(index), 20);
  try {
    await assert.rejects(slot.claim());
    assert.equal(slot.index, null);
    state.away = false;
    for (let i = 0; i < 50 && slot.index === null; i++) await sleep(10);
    assert.notEqual(slot.index, null, 'never claimed once the store was back');
    assert.equal(changes.at(-1), slot.index);
  } finally {
    await slot.release();
  }
});

test('a slot whose lease ran out while the store was away is claimed again first, when nobody took it', async () => {
  const { state, client } = fakeRedis(false);
  const { keys } = state;
  const changes: (number | null)[] = [];
  const slot = new RedisIssuerSlot(client as never, 'p:', 16, (index) => changes.push(index), 20);
  try {
    const first = await slot.claim();
    assert.notEqual(first, null);
    // Away past the lease: its key expired, and the shared counter moved on meanwhile.
    state.away = true;
    await sleep(60);
    keys.delete(`p:issuer-slot:${first}`);
    keys.set('p:issuer-claims', '7');
    state.away = false;
    for (let i = 0; i < 50 && changes.length < 3; i++) await sleep(10);
    assert.deepEqual(changes, [first, null, first]);
  } finally {
    await slot.release();
  }
});
