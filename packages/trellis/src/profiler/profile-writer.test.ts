import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProfileWriter, type ProfileWriterOptions } from './profile-writer.ts';
import type { ProfileRecord } from './storage/profile-record.ts';
import type { ProfileStorage } from './storage/profile-storage.ts';
import { TokenIssuer } from './token.ts';

test('a store outage: the losses of its last interval are logged when the interval ends, not charged to the next outage', async (t) => {
  // The loss was logged on the next failure after each 10 s: an outage's last profiles were never
  // told, until the next outage opened with a line counting them as its own.
  const lines: string[] = [];
  const log = { warn: (_o: object, m: string) => lines.push(m), error: (_o: object, m: string) => lines.push(m) };
  const storage = { write: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) } as unknown as ProfileStorage;
  const writer = new ProfileWriter(storage, log as never, new TokenIssuer(100), { collectors: [] } as unknown as ProfileWriterOptions);
  const record = (token: string) => ({ token, parent: null, ip: '127.0.0.1', method: 'GET', url: '/', time: 0, statusCode: 200, durationMs: 1, data: '{}' }) as unknown as ProfileRecord;
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.now() });
  for (const token of ['a00001', 'a00002', 'a00003']) await writer.write(record(token));
  assert.deepEqual(lines, ['Profile store unavailable: 1 profile dropped since the last report (connect ECONNREFUSED 127.0.0.1:6379).']);
  t.mock.timers.tick(10_000);
  assert.deepEqual(lines.slice(1), ['Profile store unavailable: 2 profiles dropped since the last report (connect ECONNREFUSED 127.0.0.1:6379).'], 'the rest, once the interval ended');
  t.mock.timers.tick(3_600_000);
  await writer.write(record('a00004'));
  assert.deepEqual(lines.slice(2), ['Profile store unavailable: 1 profile dropped since the last report (connect ECONNREFUSED 127.0.0.1:6379).'], 'the next outage counts only its own');
  assert.equal(writer.dropped, 4);
  t.mock.timers.reset();
});
