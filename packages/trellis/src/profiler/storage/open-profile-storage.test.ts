import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { openProfileStorage } from './open-profile-storage.ts';
import { recordOf } from '../stored-profile.ts';
import { syntheticProfiles } from './synthetic-profiles.ts';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a Redis store that cannot connect says why its writes fail (the connection error), not only that ioredis gave up', async () => {
  const port = await closedPort();
  const storage = await openProfileStorage(`redis://127.0.0.1:${port}`, { maxProfiles: 10, ttlSeconds: 60 });
  try {
    const [profile] = [...syntheticProfiles(1, { end: Date.now() })];
    const error = (await storage.write(recordOf({ ...profile!, parent: null })).then(() => null, (e: unknown) => e)) as Error | null;
    assert.ok(error instanceof Error, 'the write did not fail');
    assert.equal(error.message, `Redis is unreachable: connect ECONNREFUSED 127.0.0.1:${port}`);
    assert.match(String((error.cause as Error | undefined)?.message), /^Reached the max retries per request limit/);
  } finally {
    await storage.close();
  }
});

test('so do its reads, whether ioredis gave up or the command timed out (what the 503 pages quote)', async () => {
  const port = await closedPort();
  for (const options of [{}, { commandTimeoutMs: 200 }]) {
    const storage = await openProfileStorage(`redis://127.0.0.1:${port}`, { maxProfiles: 10, ttlSeconds: 60 }, options);
    try {
      for (const read of [() => storage.read('abcdef'), () => storage.find({ limit: 5 }), () => storage.tokens(5)]) {
        const error = (await read().then(() => null, (e: unknown) => e)) as Error | null;
        assert.equal(error?.message, `Redis is unreachable: connect ECONNREFUSED 127.0.0.1:${port}`, JSON.stringify(options));
      }
    } finally {
      await storage.close();
    }
  }
});
