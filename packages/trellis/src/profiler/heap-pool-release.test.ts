import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { exposedGc, HeapPoolRelease } from './heap-pool-release.ts';

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

test('started with --expose-gc: the global gc, and the flag left alone', () => {
  const asked: string[] = [];
  const global = () => undefined;
  assert.equal(
    exposedGc((flags) => asked.push(flags), global),
    global,
  );
  assert.deepEqual(asked, []);
});

test('another thread turning --expose-gc off between this one turning it on and making its context: tried again', () => {
  const asked: string[] = [];
  // What a second profiler thread starting at the same moment does: its own `finally`.
  const racing = (flags: string) => {
    asked.push(flags);
    v8.setFlagsFromString(flags);
    if (asked.length === 1) v8.setFlagsFromString('--no-expose-gc');
  };
  const found = exposedGc(racing, null);
  assert.equal(typeof found, 'function');
  assert.deepEqual(asked, ['--expose-gc', '--no-expose-gc', '--expose-gc', '--no-expose-gc']);
  assert.equal(runInNewContext('typeof gc'), 'undefined', 'the flag is left off');
});

test('with the flag turned off at every try: no gc, and a release that runs nothing, without failing', () => {
  let tries = 0;
  const never = (flags: string) => {
    if (flags === '--expose-gc') tries++;
    v8.setFlagsFromString('--no-expose-gc');
  };
  assert.equal(exposedGc(never, null), null);
  assert.equal(tries, 16);
  const release = new HeapPoolRelease({ intervalMs: 10, now: 0, gc: null });
  assert.equal(release.available, false);
  release.observe(1_000);
  assert.equal(release.runs, 0);
});

test('four threads taking their gc at once, 300 times each: every one gets it', async () => {
  v8.setFlagsFromString('--no-expose-gc');
  const start = new Int32Array(new SharedArrayBuffer(4));
  const module = new URL('./heap-pool-release.ts', import.meta.url).href;
  // Each thread starts (its own context made with the flag off), then waits for the others.
  const source = `
    const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.module).then(({ exposedGc }) => {
      parentPort.postMessage('ready');
      Atomics.wait(workerData.start, 0, 0);
      let missing = 0;
      for (let i = 0; i < 300; i++) if (typeof exposedGc() !== 'function') missing++;
      parentPort.postMessage({ missing, global: typeof globalThis.gc });
    }, (error) => parentPort.postMessage({ error: String(error) }));`;
  const workers = Array.from({ length: 4 }, () => new Worker(source, { eval: true, workerData: { module, start } }));
  const results = workers.map(
    (worker) =>
      new Promise<unknown[]>((resolve, reject) => {
        const messages: unknown[] = [];
        worker.on('message', (message) => {
          messages.push(message);
          if (messages.length === 2) resolve(messages);
        });
        worker.on('error', reject);
      }),
  );
  const ready = workers.map((worker) => new Promise((resolve) => worker.once('message', resolve)));
  await Promise.all(ready);
  Atomics.store(start, 0, 1);
  Atomics.notify(start, 0);
  const done = await Promise.all(results);
  await Promise.all(workers.map((worker) => worker.terminate()));
  assert.deepEqual(
    done.map((messages) => messages[1]),
    Array.from({ length: 4 }, () => ({ missing: 0, global: 'undefined' })),
  );
});
