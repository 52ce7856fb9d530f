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
