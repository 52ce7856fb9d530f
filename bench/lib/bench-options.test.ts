import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBenchArgs } from './bench-options.ts';

test('defaults are the full run', () => {
  const o = parseBenchArgs([]);
  assert.equal(o.quick, false);
  assert.equal(o.check, false);
  assert.equal(o.rounds, 3);
  assert.equal(o.findProfiles, 1_000_000);
  assert.equal(o.findProfilesRedis, 200_000);
  assert.equal(o.rssLow, 10_000);
  assert.equal(o.rssHigh, 200_000);
  assert.deepEqual(o.only, []);
});

test('--quick shrinks everything and later flags still override it', () => {
  const o = parseBenchArgs(['--quick', '--rounds=2', '--check']);
  assert.equal(o.quick, true);
  assert.equal(o.rounds, 2);
  assert.equal(o.durationSeconds, 1);
  assert.equal(o.findProfiles, 20_000);
  assert.equal(o.check, true);
});

test('--only splits on commas', () => {
  assert.deepEqual(parseBenchArgs(['--only=not-found, hello-json']).only, ['not-found', 'hello-json']);
});

test('bad arguments get exact messages', () => {
  assert.throws(() => parseBenchArgs(['--rounds=0']), { message: '--rounds expects a positive integer, got "0"' });
  assert.throws(() => parseBenchArgs(['--duration=abc']), { message: '--duration expects a positive number, got "abc"' });
  assert.throws(() => parseBenchArgs(['--frobnicate']), { message: 'unknown option --frobnicate' });
  assert.throws(() => parseBenchArgs(['fast']), { message: 'unknown argument "fast"' });
  assert.throws(() => parseBenchArgs(['--tool=ab']), { message: '--tool expects wrk, autocannon or auto, got "ab"' });
  assert.throws(() => parseBenchArgs(['--only=']), { message: '--only needs a value (--only=…)' });
  assert.throws(() => parseBenchArgs(['--rss-low=500', '--rss-high=100']), { message: '--rss-high (100) must be greater than --rss-low (500)' });
});
