import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OncePerInterval } from './once-per-interval.ts';

test('one line per interval, carrying the count of occurrences it stands for', () => {
  const gate = new OncePerInterval(10_000);
  assert.equal(gate.hit(0), 1);
  assert.equal(gate.hit(1_000), null);
  assert.equal(gate.hit(9_999), null);
  assert.equal(gate.hit(10_000), 3);
  assert.equal(gate.hit(25_000), 1);
});

test('hitOrLater: a burst that stops within the interval is told at its end, once', async () => {
  const once = new OncePerInterval(100);
  const late: number[] = [];
  assert.equal(once.hitOrLater((n) => late.push(n)), 1, 'the first occurrence makes a line at once');
  for (let i = 0; i < 1398; i++) assert.equal(once.hitOrLater((n) => late.push(n)), null);
  await new Promise((r) => setTimeout(r, 150));
  assert.deepEqual(late, [1398], 'the rest of the burst, when the interval ends');
  await new Promise((r) => setTimeout(r, 150));
  assert.deepEqual(late, [1398], 'nothing more to tell: no second line');
  assert.equal(once.hitOrLater((n) => late.push(n)), 1, 'a new burst after the interval: a line at once');
});

test('hitOrLater: a line due before the late one ran tells it all; the late one is dropped', async () => {
  const once = new OncePerInterval(50);
  const late: number[] = [];
  assert.equal(once.hitOrLater((n) => late.push(n)), 1);
  assert.equal(once.hitOrLater((n) => late.push(n)), null);
  const busyUntil = performance.now() + 70;
  while (performance.now() < busyUntil) {
    // The event loop is busy (overload): the late timer cannot run.
  }
  assert.equal(once.hitOrLater((n) => late.push(n)), 2, 'due: it carries the one the late line held');
  await new Promise((r) => setTimeout(r, 120));
  assert.deepEqual(late, [], 'no second line for the same drops');
});
