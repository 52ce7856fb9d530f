import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BodyBudget } from './body-budget.ts';

test('bodies that fit are admitted at once, and hold their bytes until done', () => {
  const budget = new BodyBudget(100);
  const started: string[] = [];
  const a = budget.admit(60, () => started.push('a'));
  const b = budget.admit(40, () => started.push('b'));
  assert.deepEqual(started, ['a', 'b']);
  assert.equal(budget.used, 100);
  a();
  assert.equal(budget.used, 40);
  b();
  assert.equal(budget.used, 0);
  assert.equal(budget.waiting, 0);
});

test('a body past the limit waits, unstarted, until enough is given back', () => {
  const budget = new BodyBudget(100);
  const started: string[] = [];
  const a = budget.admit(70, () => started.push('a'));
  budget.admit(50, () => started.push('b'));
  assert.deepEqual(started, ['a']);
  assert.equal(budget.waiting, 1);
  assert.equal(budget.used, 70);
  a();
  assert.deepEqual(started, ['a', 'b']);
  assert.equal(budget.used, 50);
  assert.equal(budget.waiting, 0);
});

test('a body larger than the whole limit is admitted when no other is being read, so none waits for ever', () => {
  const budget = new BodyBudget(100);
  const started: string[] = [];
  const a = budget.admit(10, () => started.push('a'));
  const big = budget.admit(500, () => started.push('big'));
  assert.deepEqual(started, ['a']);
  a();
  assert.deepEqual(started, ['a', 'big']);
  assert.equal(budget.used, 500);
  big();
  assert.equal(budget.used, 0);
  // Alone from the start: admitted at once.
  const alone = budget.admit(1000, () => started.push('alone'));
  assert.deepEqual(started, ['a', 'big', 'alone']);
  alone();
});

test('waiters are admitted in arrival order: a small body does not overtake a large one that waits', () => {
  const budget = new BodyBudget(100);
  const started: string[] = [];
  const a = budget.admit(90, () => started.push('a'));
  budget.admit(80, () => started.push('large'));
  // Would fit beside a (90 + 5 ≤ 100), but the large body came first.
  budget.admit(5, () => started.push('small'));
  assert.deepEqual(started, ['a']);
  a();
  assert.deepEqual(started, ['a', 'large', 'small']);
  assert.equal(budget.used, 85);
});

test('a waiter withdrawn (client gone, deadline) is never started and frees its place in the queue', () => {
  const budget = new BodyBudget(100);
  const started: string[] = [];
  const a = budget.admit(100, () => started.push('a'));
  const gone = budget.admit(100, () => started.push('gone'));
  budget.admit(30, () => started.push('next'));
  gone();
  assert.equal(budget.waiting, 1);
  a();
  assert.deepEqual(started, ['a', 'next']);
  assert.equal(budget.used, 30);
});

test('done is idempotent: called twice, it gives the bytes back once', () => {
  const budget = new BodyBudget(100);
  const a = budget.admit(40, () => {});
  const b = budget.admit(40, () => {});
  a();
  a();
  assert.equal(budget.used, 40);
  b();
  assert.equal(budget.used, 0);
});

test('many bodies through a small budget: never more than the limit held beside another, all started once', () => {
  const budget = new BodyBudget(1000);
  const dones: (() => void)[] = [];
  const started = new Set<number>();
  let peak = 0;
  for (let i = 0; i < 200; i++) {
    const size = 50 + ((i * 37) % 400);
    dones.push(budget.admit(size, () => {
      assert.equal(started.has(i), false);
      started.add(i);
      peak = Math.max(peak, budget.used);
    }));
  }
  // Finish in an order of their own, a few at a time.
  const finished = new Set<number>();
  let k = 0;
  while (finished.size < 200) {
    for (const i of [...started].filter((j) => !finished.has(j)).slice(0, 3)) {
      finished.add(i);
      dones[i]!();
    }
    if (++k > 10_000) assert.fail('the budget stalled');
  }
  assert.equal(budget.used, 0);
  assert.equal(started.size, 200);
  assert.ok(peak <= 1000, `held ${peak} bytes at once`);
  assert.equal(budget.waiting, 0);
});
