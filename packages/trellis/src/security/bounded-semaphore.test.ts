import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedSemaphore, SemaphoreFullError } from './bounded-semaphore.ts';

test('at most `concurrency` tasks run, the rest wait in order, past the queue they are refused', async () => {
  const semaphore = new BoundedSemaphore(2, 2);
  let running = 0;
  let peak = 0;
  const order: number[] = [];
  const releases: (() => void)[] = [];
  const task = (n: number) => () =>
    new Promise<number>((resolve) => {
      running++;
      peak = Math.max(peak, running);
      order.push(n);
      releases.push(() => {
        running--;
        resolve(n);
      });
    });
  const results = [1, 2, 3, 4].map((n) => semaphore.run(task(n)));
  await assert.rejects(semaphore.run(task(5)), SemaphoreFullError);
  assert.equal(semaphore.running, 2);
  assert.equal(semaphore.waiting, 2);
  while (releases.length > 0 || order.length < 4) {
    await new Promise((r) => setImmediate(r));
    releases.shift()?.();
  }
  assert.deepEqual(await Promise.all(results), [1, 2, 3, 4]);
  assert.deepEqual(order, [1, 2, 3, 4]);
  assert.equal(peak, 2);
  assert.equal(semaphore.running, 0);
});

test('a failing task frees its slot', async () => {
  const semaphore = new BoundedSemaphore(1, 0);
  await assert.rejects(semaphore.run(async () => { throw new Error('x'); }), /x/);
  assert.equal(await semaphore.run(async () => 7), 7);
});
