import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HeapPoolRelease } from './heap-pool-release.ts';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** About `mb` MB of live arrays in the old generation. */
function arrays(mb: number): number[][] {
  const held: number[][] = [];
  for (let i = 0; i < mb * 16; i++) held.push(new Array(8192).fill(i + 0.5));
  return held;
}

test('pages an ordinary collection freed stay resident; the memory-reducing collection returns them to the system', () => {
  const release = new HeapPoolRelease({ intervalMs: 10_000, now: 0 });
  let held: number[][] | null = arrays(64);
  assert.equal(held.length, 64 * 16);
  held = null;
  gc();
  const before = process.memoryUsage().rss;
  release.observe(10_000);
  assert.equal(release.runs, 1);
  const returned = before - process.memoryUsage().rss;
  assert.ok(returned > 32 * 2 ** 20, `RSS fell by ${(returned / 2 ** 20).toFixed(0)} MB`);
});

test('at most one memory-reducing collection per interval', () => {
  const release = new HeapPoolRelease({ intervalMs: 10_000, now: 0 });
  release.observe(5_000);
  assert.equal(release.runs, 0);
  release.observe(10_000);
  release.observe(19_999);
  assert.equal(release.runs, 1);
  release.observe(20_000);
  assert.equal(release.runs, 2);
});
