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

test('a heap that shrank from its high-water mark is given one memory-reducing collection, which returns its pages to the system; none again within the interval', () => {
  const release = new HeapPoolRelease({ minShrinkBytes: 16 * 2 ** 20, minIntervalMs: 10_000 });
  let held: number[][] | null = arrays(64);
  release.observe(0);
  assert.equal(release.runs, 0, 'the heap has not shrunk');
  held = null;
  // An ordinary full collection frees the arrays; the heap's pages stay resident.
  gc();
  const before = process.memoryUsage().rss;
  release.observe(20_000);
  assert.equal(release.runs, 1);
  const returned = before - process.memoryUsage().rss;
  assert.ok(returned > 32 * 2 ** 20, `RSS fell by ${(returned / 2 ** 20).toFixed(0)} MB`);

  held = arrays(64);
  release.observe(21_000);
  held = null;
  gc();
  release.observe(25_000);
  assert.equal(release.runs, 1, 'within the interval: no second collection');
  release.observe(31_000);
  assert.equal(release.runs, 2);
});

test('a heap that only grew is left alone', () => {
  const release = new HeapPoolRelease({ minShrinkBytes: 16 * 2 ** 20, minIntervalMs: 0 });
  const held = arrays(32);
  release.observe(0);
  const more = arrays(8);
  release.observe(1);
  assert.equal(release.runs, 0);
  assert.equal(held.length + more.length, 40 * 16);
});
