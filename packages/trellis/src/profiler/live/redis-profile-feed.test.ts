import { after, before } from 'node:test';
import { Redis } from 'ioredis';
import { redisForTests } from '../../testing/services.ts';
import { RedisProfileStorage } from '../storage/redis-profile-storage.ts';
import { profileFeedContract } from './profile-feed.contract.ts';

const service = await redisForTests();
let client: Redis | null = null;
let n = 0;

before(() => {
  if (service.url) client = new Redis(service.url, { maxRetriesPerRequest: 1 });
});
after(async () => {
  await client?.quit();
});

// A profile reaches the feed by being written to the store, by any client sharing its prefix.
profileFeedContract(
  'redis',
  async () => {
    const prefix = `trellis-test:profiler-feed:${process.pid}:${n++}:`;
    let opened = 0;
    const reader = new RedisProfileStorage(
      Object.assign(Object.create(client!) as Redis, { duplicate: () => (opened++, client!.duplicate()) }),
      { maxProfiles: 100, ttlSeconds: 3600, prefix },
    );
    const writer = new RedisProfileStorage(client!, { maxProfiles: 100, ttlSeconds: 3600, prefix });
    return {
      feed: reader.openFeed(),
      record: async (summaries) => {
        await Promise.all(summaries.map((s) => writer.write({ ...s, data: '{}' })));
      },
      connected: () => opened > 0,
      cleanUp: () => writer.purge(),
    };
  },
  { skip: service.skip },
);
