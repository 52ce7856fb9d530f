/**
 * The one contract every ProfileStorage passes. Each implementation's `*.test.ts` calls
 * `profileStorageContract` with a factory that opens a fresh, empty store.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ProfileRecord } from './profile-record.ts';
import { TokenTakenError, type ProfileStorage } from './profile-storage.ts';

export interface ContractStoreOptions {
  readonly maxProfiles: number;
  readonly ttlSeconds: number;
  readonly now: () => number;
}

export type StoreFactory = (options: ContractStoreOptions) => Promise<ProfileStorage>;

const T0 = Date.UTC(2026, 10, 22, 8, 5, 9);

function profile(token: string, overrides: Partial<ProfileRecord> = {}): ProfileRecord {
  return {
    token,
    parent: null,
    ip: '127.0.0.1',
    method: 'GET',
    url: `http://localhost/books/${token}`,
    time: T0,
    statusCode: 200,
    durationMs: 1.5,
    // Opaque to the store: kept as given, whatever it holds.
    data: JSON.stringify({ children: [], collectors: { request: { headers: { accept: 'text/html' } }, logs: [{ level: 'info', message: 'é ✓ "\\' }] } }),
    ...overrides,
  };
}

async function withStore(factory: StoreFactory, options: Partial<ContractStoreOptions>, run: (s: ProfileStorage) => Promise<void>) {
  const store = await factory({ maxProfiles: 1000, ttlSeconds: 86400, now: () => T0 + 1000, ...options });
  try {
    await store.purge();
    await run(store);
  } finally {
    await store.purge();
    await store.close();
  }
}

export function profileStorageContract(name: string, factory: StoreFactory, suiteOptions: { skip?: string | false } = {}): void {
  describe(`ProfileStorage contract: ${name}`, { skip: suiteOptions.skip }, () => {
    it('a burst of writes in one turn with a taken token among them: only that write is refused', async () => {
      await withStore(factory, {}, async (store) => {
        await store.write(profile('f00000'));
        const tokens = Array.from({ length: 250 }, (_, i) => (i === 180 ? 'f00000' : `f1${i.toString(16).padStart(4, '0')}`));
        const results = await Promise.allSettled(tokens.map((t, i) => store.write(profile(t, { time: T0 + i + 1 }))));
        const refused = results.flatMap((r, i) => (r.status === 'rejected' ? [[i, (r.reason as Error).name]] : []));
        assert.deepEqual(refused, [[180, 'TokenTakenError']]);
        const found = await store.find({ limit: 1000 });
        assert.equal(found.length, 250);
        assert.equal(found[0]?.token, 'f100f9');
      });
    });

    it('reads back exactly what was written, and null for an unknown token', async () => {
      await withStore(factory, {}, async (store) => {
        const p = profile('a1b2c3', { parent: 'd4e5f6', durationMs: 0.125, data: '{"snapshot":{"token":"a1b2c3"},"payload":"{\\"a\\":1}\\n"}' });
        await store.write(p);
        assert.deepEqual(await store.read('a1b2c3'), p);
        assert.equal(await store.read('ffffff'), null);
      });
    });

    it('refuses a second profile with the same token and keeps the first', async () => {
      await withStore(factory, {}, async (store) => {
        await store.write(profile('aaaaaa', { method: 'GET' }));
        await assert.rejects(store.write(profile('aaaaaa', { method: 'POST' })), TokenTakenError);
        assert.equal((await store.read('aaaaaa'))?.method, 'GET');
        assert.equal((await store.find({ method: 'POST', limit: 10 })).length, 0);
      });
    });

    it('finds newest first, up to the limit, as summaries', async () => {
      await withStore(factory, {}, async (store) => {
        for (let i = 0; i < 5; i++) await store.write(profile(`00000${i}`, { time: T0 - 1000 + i * 100 }));
        const found = await store.find({ limit: 3 });
        assert.deepEqual(found.map((s) => s.token), ['000004', '000003', '000002']);
        assert.deepEqual(found[0], {
          token: '000004', parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://localhost/books/000004',
          time: T0 - 600, statusCode: 200, durationMs: 1.5,
        });
      });
    });

    it('keeps write order among profiles of the same millisecond', async () => {
      await withStore(factory, {}, async (store) => {
        await store.write(profile('bbbbb1'));
        await store.write(profile('bbbbb2', { parent: 'bbbbb1' }));
        assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['bbbbb2', 'bbbbb1']);
      });
    });

    it('narrows by every field of the query', async () => {
      await withStore(factory, {}, async (store) => {
        await store.write(profile('c00001', { ip: '10.0.0.1', method: 'GET', statusCode: 200, url: 'http://h/books?page=2', time: T0 - 500 }));
        await store.write(profile('c00002', { ip: '10.0.0.2', method: 'POST', statusCode: 201, url: 'http://h/books', time: T0 - 400 }));
        await store.write(profile('c00003', { ip: '10.0.0.1', method: 'GET', statusCode: 404, url: 'http://h/robots.txt', time: T0 - 300 }));
        await store.write(profile('c00004', { parent: 'c00003', ip: '10.0.0.1', method: 'GET', statusCode: 404, url: 'http://h/robots.txt', time: T0 - 299 }));
        const tokens = async (q: object) => (await store.find({ limit: 10, ...q })).map((s) => s.token);
        assert.deepEqual(await tokens({ ip: '10.0.0.1' }), ['c00004', 'c00003', 'c00001']);
        assert.deepEqual(await tokens({ method: 'POST' }), ['c00002']);
        assert.deepEqual(await tokens({ statusCode: 404 }), ['c00004', 'c00003']);
        assert.deepEqual(await tokens({ url: 'robots' }), ['c00004', 'c00003']);
        assert.deepEqual(await tokens({ url: '?' }), ['c00001']);
        assert.deepEqual(await tokens({ url: 'books' }), ['c00002', 'c00001']);
        assert.deepEqual(await tokens({ token: 'c00002' }), ['c00002']);
        assert.deepEqual(await tokens({ token: 'c00002', method: 'GET' }), []);
        assert.deepEqual(await tokens({ start: T0 - 400, end: T0 - 299 }), ['c00003', 'c00002']);
        assert.deepEqual(await tokens({ mainOnly: true, statusCode: 404 }), ['c00003']);
        assert.deepEqual(await tokens({ ip: '10.0.0.1', method: 'GET', statusCode: 200 }), ['c00001']);
        assert.deepEqual(await tokens({ mainOnly: true, limit: 1 }), ['c00003']);
        assert.deepEqual(await tokens({ statusClass: 2 }), ['c00002', 'c00001']);
        assert.deepEqual(await tokens({ statusClass: 4 }), ['c00004', 'c00003']);
        assert.deepEqual(await tokens({ statusClass: 5 }), []);
        assert.deepEqual(await tokens({ statusClass: 4, mainOnly: true }), ['c00003']);
        assert.deepEqual(await tokens({ statusClass: 2, method: 'GET' }), ['c00001']);
        assert.deepEqual(await tokens({ statusClass: 2, url: 'books' }), ['c00002', 'c00001']);
        assert.deepEqual(await tokens({ statusClass: 2, ip: '10.0.0.1', limit: 1 }), ['c00001']);
      });
    });

    it('finds URL substrings holding characters JSON escapes', async () => {
      await withStore(factory, {}, async (store) => {
        await store.write(profile('b00001', { url: 'http://h/a"q\\z', time: T0 - 2 }));
        await store.write(profile('b00002', { url: 'http://h/aq', time: T0 - 1 }));
        assert.deepEqual((await store.find({ url: 'a"q\\', limit: 10 })).map((s) => s.token), ['b00001']);
        assert.deepEqual((await store.find({ url: 'aq', limit: 10 })).map((s) => s.token), ['b00002']);
      });
    });

    it('keeps at most maxProfiles, dropping the oldest', async () => {
      await withStore(factory, { maxProfiles: 3 }, async (store) => {
        for (let i = 0; i < 5; i++) await store.write(profile(`d0000${i}`, { time: T0 - 1000 + i }));
        assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['d00004', 'd00003', 'd00002']);
        for (const filter of [{ method: 'GET' }, { statusCode: 200 }, { statusClass: 2 as const }, { ip: '127.0.0.1' }, { mainOnly: true }, { url: 'books' }]) {
          assert.deepEqual((await store.find({ limit: 10, ...filter })).map((s) => s.token), ['d00004', 'd00003', 'd00002'], JSON.stringify(filter));
        }
        assert.equal(await store.read('d00000'), null);
        assert.equal(await store.read('d00001'), null);
        assert.equal((await store.read('d00002'))?.token, 'd00002');
      });
    });

    it('never returns a profile older than the TTL', async () => {
      let now = T0;
      await withStore(factory, { ttlSeconds: 60, now: () => now }, async (store) => {
        await store.write(profile('e00001', { time: T0 - 30_000 }));
        await store.write(profile('e00002', { time: T0 - 10_000 }));
        now = T0 + 40_000;
        assert.equal(await store.read('e00001'), null);
        assert.equal((await store.read('e00002'))?.token, 'e00002');
        assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['e00002']);
        assert.deepEqual(await store.find({ token: 'e00001', limit: 1 }), []);
        await store.write(profile('e00003', { time: now }));
        assert.deepEqual((await store.find({ limit: 10 })).map((s) => s.token), ['e00003', 'e00002']);
      });
    });

    it('lists the tokens of the newest profiles, oldest first', async () => {
      await withStore(factory, {}, async (store) => {
        assert.deepEqual(await store.tokens(10), []);
        for (let i = 0; i < 5; i++) await store.write(profile(`70000${i}`, { time: T0 - 1000 + i }));
        assert.deepEqual(await store.tokens(3), ['700002', '700003', '700004']);
        assert.deepEqual(await store.tokens(10), ['700000', '700001', '700002', '700003', '700004']);
      });
    });

    it('purges everything', async () => {
      await withStore(factory, {}, async (store) => {
        await store.write(profile('f00001'));
        await store.purge();
        assert.equal(await store.read('f00001'), null);
        assert.deepEqual(await store.find({ limit: 10 }), []);
        await store.write(profile('f00001'));
        assert.equal((await store.read('f00001'))?.token, 'f00001');
      });
    });

    it('pins and unpins a stored profile, flagged pinned in read and find while it is; an unknown token is false', async () => {
      await withStore(factory, {}, async (store) => {
        const written = profile('a00001');
        await store.write(written);
        await store.write(profile('a00002', { time: T0 + 1 }));
        assert.equal(await store.pin('a00001', true), true);
        assert.equal(await store.pin('a00001', true), true, 'pinning twice changes nothing');
        assert.deepEqual(await store.read('a00001'), { ...written, pinned: true });
        assert.deepEqual((await store.find({ limit: 10 })).map((x) => [x.token, x.pinned]), [['a00002', undefined], ['a00001', true]]);
        const { data: _data, ...summary } = written;
        assert.deepEqual(await store.find({ token: 'a00001', limit: 1 }), [{ ...summary, pinned: true }]);
        assert.deepEqual((await store.find({ pinned: true, limit: 10 })).map((x) => x.token), ['a00001']);
        assert.equal(await store.pin('a00001', false), true);
        assert.equal(await store.pin('a00001', false), true);
        assert.deepEqual(await store.read('a00001'), written);
        assert.deepEqual(await store.find({ pinned: true, limit: 10 }), []);
        assert.deepEqual((await store.find({ limit: 10 })).map((x) => x.token), ['a00002', 'a00001']);
        assert.equal(await store.pin('ffffff', true), false);
        assert.equal(await store.pin('ffffff', false), false);
      });
    });

    it('a pinned profile outlives maxProfiles, does not count towards it, and is listed in its place', async () => {
      await withStore(factory, { maxProfiles: 3 }, async (store) => {
        await store.write(profile('b00000', { time: T0 - 1000 }));
        assert.equal(await store.pin('b00000', true), true);
        for (let i = 1; i <= 2; i++) await store.write(profile(`b0000${i}`, { time: T0 - 1000 + i }));
        assert.equal(await store.pin('b00002', true), true);
        for (let i = 3; i <= 7; i++) await store.write(profile(`b0000${i}`, { time: T0 - 1000 + i }));
        const all = ['b00007', 'b00006', 'b00005', 'b00002', 'b00000'];
        assert.deepEqual((await store.find({ limit: 10 })).map((x) => x.token), all);
        for (const filter of [{ method: 'GET' }, { statusCode: 200 }, { ip: '127.0.0.1' }, { mainOnly: true }, { url: 'books' }]) {
          assert.deepEqual((await store.find({ limit: 10, ...filter })).map((x) => x.token), all, JSON.stringify(filter));
        }
        assert.deepEqual((await store.find({ limit: 2 })).map((x) => x.token), ['b00007', 'b00006']);
        assert.deepEqual((await store.find({ limit: 10, method: 'POST' })).map((x) => x.token), []);
        assert.deepEqual((await store.find({ limit: 10, end: T0 - 997 })).map((x) => x.token), ['b00002', 'b00000']);
        assert.equal((await store.read('b00000'))?.pinned, true);
        assert.equal(await store.read('b00001'), null);
        // Unpinned, it is the oldest again, and counts: the next write leaves the newest three.
        assert.equal(await store.pin('b00000', false), true);
        await store.write(profile('b00008', { time: T0 - 1000 + 8 }));
        assert.deepEqual((await store.find({ limit: 10 })).map((x) => x.token), ['b00008', 'b00007', 'b00006', 'b00002']);
        assert.equal(await store.read('b00000'), null);
      });
    });

    it('a pinned profile outlives the TTL; unpinned, it is gone', async () => {
      let now = T0;
      await withStore(factory, { ttlSeconds: 60, now: () => now }, async (store) => {
        await store.write(profile('c10001', { time: T0 - 30_000 }));
        await store.write(profile('c10002', { time: T0 - 25_000 }));
        assert.equal(await store.pin('c10001', true), true);
        now = T0 + 40_000;
        await store.write(profile('c10003', { time: now }));
        assert.equal((await store.read('c10001'))?.token, 'c10001');
        assert.equal(await store.read('c10002'), null);
        assert.equal(await store.pin('c10002', true), false, 'too late: an expired profile cannot be pinned');
        assert.deepEqual((await store.find({ limit: 10 })).map((x) => x.token), ['c10003', 'c10001']);
        assert.deepEqual((await store.find({ token: 'c10001', limit: 1 })).map((x) => x.token), ['c10001']);
        assert.deepEqual((await store.find({ pinned: true, limit: 10 })).map((x) => x.token), ['c10001']);
        assert.equal(await store.pin('c10001', false), true);
        assert.equal(await store.read('c10001'), null);
        assert.deepEqual((await store.find({ limit: 10 })).map((x) => x.token), ['c10003']);
      });
    });

    it('a pinned token stays taken', async () => {
      await withStore(factory, {}, async (store) => {
        await store.write(profile('d10001'));
        await store.pin('d10001', true);
        await assert.rejects(store.write(profile('d10001', { method: 'POST' })), TokenTakenError);
        assert.equal((await store.read('d10001'))?.method, 'GET');
      });
    });

    it('purge({ keepPinned: true }) removes every profile but the pinned ones; purge() removes them too', async () => {
      await withStore(factory, { maxProfiles: 5 }, async (store) => {
        for (let i = 0; i < 4; i++) await store.write(profile(`e1000${i}`, { time: T0 - 100 + i }));
        await store.pin('e10001', true);
        await store.purge({ keepPinned: true });
        assert.deepEqual((await store.find({ limit: 10 })).map((x) => x.token), ['e10001']);
        assert.equal(await store.read('e10000'), null);
        // The store goes on as before: writes are kept and retention holds.
        for (let i = 0; i < 8; i++) await store.write(profile(`e2000${i}`, { time: T0 + i }));
        assert.deepEqual((await store.find({ limit: 10 })).map((x) => x.token), ['e20007', 'e20006', 'e20005', 'e20004', 'e20003', 'e10001']);
        await store.purge();
        assert.deepEqual(await store.find({ limit: 10 }), []);
        assert.equal(await store.read('e10001'), null);
      });
    });

    it('accepts concurrent writes and sees them all', async () => {
      await withStore(factory, {}, async (store) => {
        const tokens = Array.from({ length: 50 }, (_, i) => `9${i.toString(16).padStart(5, '0')}`);
        await Promise.all(tokens.map((t, i) => store.write(profile(t, { time: T0 - 1000 + i }))));
        assert.equal((await store.find({ limit: 100 })).length, 50);
        assert.equal((await store.find({ limit: 100 }))[0]!.token, tokens[49]);
      });
    });
  });
}
