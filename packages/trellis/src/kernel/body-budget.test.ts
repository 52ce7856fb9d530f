import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BodyBudget } from './body-budget.ts';

/** A body of `size` under the budget, recording its pauses and resumes in `log`. */
function body(budget: BodyBudget, name: string, size: number, log: string[]) {
  return budget.open(size, () => log.push(`pause ${name}`), () => log.push(`resume ${name}`));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('bodies that fit are read at once and hold their size until closed', () => {
  const budget = new BodyBudget(100);
  const log: string[] = [];
  const a = body(budget, 'a', 60, log);
  const b = body(budget, 'b', 40, log);
  assert.deepEqual(log, []);
  assert.equal(budget.used, 100);
  a.close();
  assert.equal(budget.used, 40);
  b.close();
  assert.equal(budget.used, 0);
  assert.equal(budget.waiting, 0);
});

test('a body past the limit waits, paused before its first chunk, until enough is given back', () => {
  const budget = new BodyBudget(100);
  const log: string[] = [];
  const a = body(budget, 'a', 70, log);
  const b = body(budget, 'b', 50, log);
  assert.deepEqual(log, ['pause b']);
  assert.equal(budget.waiting, 1);
  assert.equal(budget.used, 70);
  a.close();
  assert.deepEqual(log, ['pause b', 'resume b']);
  assert.equal(budget.used, 50);
  assert.equal(budget.waiting, 0);
  b.close();
});

test('a body larger than the whole limit is read when no other is, so none waits for ever', () => {
  const budget = new BodyBudget(100);
  const log: string[] = [];
  const a = body(budget, 'a', 10, log);
  const big = body(budget, 'big', 500, log);
  assert.deepEqual(log, ['pause big']);
  a.close();
  assert.deepEqual(log, ['pause big', 'resume big']);
  assert.equal(budget.used, 500);
  big.close();
  body(budget, 'alone', 1000, log).close();
  assert.deepEqual(log, ['pause big', 'resume big']);
});

test('waiting bodies are read in arrival order: a small one does not overtake a large one', () => {
  const budget = new BodyBudget(100);
  const log: string[] = [];
  const a = body(budget, 'a', 90, log);
  body(budget, 'large', 80, log);
  // Would fit beside a (90 + 5 ≤ 100), but the large body came first.
  body(budget, 'small', 5, log);
  assert.deepEqual(log, ['pause large', 'pause small']);
  a.close();
  assert.deepEqual(log.slice(2), ['resume large', 'resume small']);
  assert.equal(budget.used, 85);
});

test('a waiting body closed (client gone, deadline) is never resumed and frees its place', () => {
  const budget = new BodyBudget(100);
  const log: string[] = [];
  const a = body(budget, 'a', 100, log);
  const gone = body(budget, 'gone', 100, log);
  body(budget, 'next', 30, log);
  gone.close();
  assert.equal(budget.waiting, 1);
  a.close();
  assert.deepEqual(log, ['pause gone', 'pause next', 'resume next']);
  assert.equal(budget.used, 30);
});

test('close is idempotent, and bytes counted after it are ignored', () => {
  const budget = new BodyBudget(100);
  const a = body(budget, 'a', 40, []);
  const b = body(budget, 'b', 40, []);
  a.close();
  a.close();
  a.add(500);
  assert.equal(budget.used, 40);
  b.close();
  assert.equal(budget.used, 0);
});

test('a body longer than it said counts for what it holds', () => {
  const budget = new BodyBudget(100);
  const a = body(budget, 'a', 40, []);
  a.add(30);
  assert.equal(budget.used, 40);
  a.add(30);
  assert.equal(budget.used, 60);
  a.close();
  assert.equal(budget.used, 0);
});

test('a body that receives nothing while others wait gives its place back, keeping what it received, and waits at the end', async () => {
  const budget = new BodyBudget(100, 50);
  const log: string[] = [];
  const silent = body(budget, 'silent', 90, log);
  silent.add(10);
  // b sends its whole body as soon as it is read.
  const b = budget.open(80, () => log.push('pause b'), () => {
    log.push('resume b');
    b.add(80);
    b.end();
  });
  assert.deepEqual(log, ['pause b']);
  await sleep(150);
  // The silent body holds its 10 bytes; b (80) is read beside them.
  assert.deepEqual(log, ['pause b', 'pause silent', 'resume b']);
  assert.equal(budget.used, 90);
  assert.equal(budget.waiting, 1);
  b.close();
  // Room again: the silent body is read again, counted at its whole size.
  assert.deepEqual(log.slice(3), ['resume silent']);
  assert.equal(budget.used, 90);
  silent.close();
  assert.equal(budget.used, 0);
});

test('a waiting body whose bytes have arrived goes before silent ones queued ahead of it; among those sending, arrival order', () => {
  const budget = new BodyBudget(100);
  const log: string[] = [];
  const a = body(budget, 'a', 100, log);
  const open = (name: string, sending: boolean) => budget.open(50, () => log.push(`pause ${name}`), () => log.push(`resume ${name}`), () => sending);
  const silent = open('silent', false);
  const first = open('first', true);
  const second = open('second', true);
  a.close();
  assert.deepEqual(log.slice(3), ['resume first', 'resume second']);
  first.close();
  assert.deepEqual(log.slice(5), ['resume silent']);
  second.close();
  silent.close();
  assert.equal(budget.used, 0);
});

test('a body arriving slower than the floor while others wait gives its place back: a byte now and then does not keep it', async () => {
  // 1,000 bytes a second at least; the dribbler sends a byte every 10 ms: 100 a second at most.
  const budget = new BodyBudget(100, 50, 1000);
  const log: string[] = [];
  const dribbler = body(budget, 'dribbler', 90, log);
  const b = budget.open(80, () => log.push('pause b'), () => {
    log.push('resume b');
    b.add(80);
    b.end();
  });
  for (let i = 0; i < 200 && log.length < 3; i++) {
    await sleep(10);
    dribbler.add(1);
  }
  assert.deepEqual(log, ['pause b', 'pause dribbler', 'resume b']);
  b.close();
  dribbler.close();
  assert.equal(budget.used, 0);
});

test('a body that receives bytes keeps its place, and so does one ended (waiting to be decoded)', async () => {
  const budget = new BodyBudget(100, 50, 10);
  const log: string[] = [];
  const sending = body(budget, 'sending', 60, log);
  const whole = body(budget, 'whole', 40, log);
  whole.add(40);
  whole.end();
  const waiting = body(budget, 'waiting', 50, log);
  for (let i = 0; i < 6; i++) {
    await sleep(25);
    sending.add(5);
  }
  assert.deepEqual(log, ['pause waiting']);
  sending.close();
  whole.close();
  assert.deepEqual(log, ['pause waiting', 'resume waiting']);
  waiting.close();
});

test('a body that received all it announced but never ended (an HTTP/2 stream left open) gives its place back when idle', async () => {
  const budget = new BodyBudget(100, 50);
  const log: string[] = [];
  const open = body(budget, 'open', 100, log);
  open.add(100);
  const b = budget.open(80, () => log.push('pause b'), () => {
    log.push('resume b');
    b.add(80);
    b.end();
  });
  await sleep(150);
  // It keeps the 100 bytes it holds; b is read beside it, as no other body is being read.
  assert.deepEqual(log, ['pause b', 'pause open', 'resume b']);
  assert.equal(budget.used, 180);
  b.close();
  open.close();
  assert.equal(budget.used, 0);
});

test('nothing waits: a body may receive nothing for as long as it likes (REQUEST_TIMEOUT is its bound)', async () => {
  const budget = new BodyBudget(100, 20);
  const log: string[] = [];
  const slow = body(budget, 'slow', 90, log);
  await sleep(80);
  assert.deepEqual(log, []);
  assert.equal(budget.used, 90);
  slow.close();
});

test('two hundred bodies through a small budget: each is read once, never more than the limit held beside another', () => {
  const budget = new BodyBudget(1000);
  let peak = 0;
  const bodies = Array.from({ length: 200 }, (_, i) => {
    const entry = { size: 50 + ((i * 37) % 400), waiting: false, resumed: 0, done: false, handle: null as unknown as ReturnType<BodyBudget['open']> };
    entry.handle = budget.open(entry.size, () => (entry.waiting = true), () => {
      entry.waiting = false;
      entry.resumed++;
    });
    peak = Math.max(peak, budget.used);
    return entry;
  });
  for (let k = 0; bodies.some((b) => !b.done); k++) {
    if (k > 10_000) assert.fail('the budget stalled');
    // The three oldest bodies being read finish.
    const reading = bodies.filter((b) => !b.done && !b.waiting).slice(0, 3);
    if (reading.length === 0) assert.fail('bodies wait and none is read');
    for (const b of reading) {
      b.done = true;
      b.handle.close();
      peak = Math.max(peak, budget.used);
    }
  }
  assert.equal(budget.used, 0);
  assert.equal(budget.waiting, 0);
  assert.ok(bodies.every((b) => b.resumed <= 1), 'a body resumed twice');
  assert.ok(bodies.filter((b) => b.resumed === 1).length > 150, 'the budget made few wait');
  assert.ok(peak <= 1000, `held ${peak} bytes at once`);
});
