// The tools' reading of a store (CLI, stdio MCP) is the pages' reading: the same profile, its pin too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storeProfileSource } from '../../src/profiler/profile-source.ts';
import { DEFAULT_SECRET_KEYS } from '../../src/logging/redact-secrets.ts';
import { profilerApp } from './profiler-app.ts';

test('a store source reads what the pages read, pinned profiles marked so', async (t) => {
  const app = await profilerApp();
  t.after(() => app.close());
  const token = (await app.inject({ url: '/hello' })).headers['x-debug-token'] as string;
  await app.profiler!.settled();
  await app.profiler!.storage.pin(token, true);
  const source = storeProfileSource(app.profiler!.storage, { maxBodyBytes: 64 * 1024, redactKeys: DEFAULT_SECRET_KEYS }, async () => {});
  const read = await source.read(token);
  assert.equal(read?.token, token);
  assert.equal((read as { pinned?: boolean } | null)?.pinned, true);
  assert.equal(((await app.inject({ url: `/_profiler/${token}.json` })).json() as { pinned?: boolean }).pinned, true);
  assert.equal(await source.read('000000'), null);
});
