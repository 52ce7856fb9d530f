import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from './create-app.ts';
import { loadConfig } from './config.ts';

test('an app that fails to build closes what its plugins opened: the profiler thread holds no port open', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-create-app-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The profiler (thread and store) is registered before the firewall, whose key file is missing.
  const config = loadConfig({ PROFILER_DSN: `sqlite:${join(dir, 'profiler.db')}`, JWT_PRIVATE_KEY: join(dir, 'missing.pem'), LOG_LEVEL: 'silent' });
  const before = process.getActiveResourcesInfo();
  await assert.rejects(createApp({ config }), { name: 'ConfigError', message: `JWT_PRIVATE_KEY: cannot read "${join(dir, 'missing.pem')}" (ENOENT)` });
  assert.deepEqual(process.getActiveResourcesInfo(), before, 'the profiler thread\'s MessagePort kept a failed start alive');
});
