import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settledWithin } from './settled-within.ts';

test('resolves as soon as the queue is stored', async () => {
  let calls = 0;
  const wait = settledWithin(async () => void calls++, 60_000);
  const t0 = performance.now();
  await wait();
  assert.equal(calls, 1);
  assert.ok(performance.now() - t0 < 1000);
});

test('a queue that is never stored (a store gone) is waited for at most the bound', async () => {
  const wait = settledWithin(() => new Promise<void>(() => {}), 50);
  const t0 = performance.now();
  await wait();
  const waited = performance.now() - t0;
  assert.ok(waited >= 45 && waited < 1000, `waited ${waited.toFixed(0)} ms`);
});

test('a failing queue is the caller\'s to see', async () => {
  const wait = settledWithin(() => Promise.reject(new Error('thread stopped')), 1000);
  await assert.rejects(wait(), { message: 'thread stopped' });
});
