import { after, before } from 'node:test';
import { Redis } from 'ioredis';
import { redisForTests } from '../../testing/services.ts';
import { RedisProfileStorage } from './redis-profile-storage.ts';
import { profileStorageContract } from './profile-storage.contract.ts';

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
