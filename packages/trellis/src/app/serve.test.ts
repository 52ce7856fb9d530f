import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shutdownGraceMs } from './serve.ts';
import { loadConfig } from './config.ts';

test('shutdown waits longer than a query may take, and at least 10 s', () => {
  assert.equal(shutdownGraceMs(loadConfig({})), 12_000, 'the default query timeout is 10 s');
  assert.equal(shutdownGraceMs(loadConfig({ DATABASE_QUERY_TIMEOUT: '2s' })), 10_000);
  assert.equal(shutdownGraceMs(loadConfig({ DATABASE_QUERY_TIMEOUT: '30s' })), 32_000);
});
