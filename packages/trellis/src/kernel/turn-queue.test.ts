import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TurnQueue } from './turn-queue.ts';

/** Counts turns of the event loop: one immediate per turn, set again from the last. */
function turnCounter(): { readonly now: number; stop(): void } {
  let turns = 0;
  let timer = setImmediate(function tick() {
    turns++;
    timer = setImmediate(tick);
  });
  return {
    get now() {
      return turns;
    },
    stop: () => clearImmediate(timer),
  };
}

test('pieces run in the order given, one per turn of the event loop', async () => {
  const turns = turnCounter();
  const queue = new TurnQueue();
  const ran: { piece: number; turn: number }[] = [];
  await new Promise<void>((done) => {
    for (let piece = 0; piece < 5; piece++) queue.run(() => (ran.push({ piece, turn: turns.now }), piece === 4 && done()));
    assert.equal(queue.waiting, 5);
  });
  turns.stop();
  assert.deepEqual(ran.map((r) => r.piece), [0, 1, 2, 3, 4]);
  for (let i = 1; i < ran.length; i++) assert.equal(ran[i]!.turn, ran[i - 1]!.turn + 1, `piece ${i} ran one turn after piece ${i - 1}`);
  assert.equal(queue.waiting, 0);
});

test('a piece added while the queue is idle runs in the next turn, and the queue rests after', async () => {
  const queue = new TurnQueue();
  const first = await new Promise<number>((done) => queue.run(() => done(1)));
  assert.equal(first, 1);
  // Idle again: a new piece arms it again.
  const second = await new Promise<number>((done) => queue.run(() => done(2)));
  assert.equal(second, 2);
  assert.equal(queue.waiting, 0);
});

test('a piece that throws does not stop the pieces after it', async () => {
  const queue = new TurnQueue();
  const failures: unknown[] = [];
  const onError = (error: unknown) => failures.push(error);
  process.prependListener('uncaughtException', onError);
  const listeners = process.listeners('uncaughtException');
  // node:test reports an uncaught exception as a failure: it is caught here instead.
  for (const listener of listeners) if (listener !== onError) process.off('uncaughtException', listener);
  try {
    const after = await new Promise<string>((done) => {
      queue.run(() => {
        throw new Error('piece failed');
      });
      queue.run(() => done('ran'));
    });
    assert.equal(after, 'ran');
    assert.deepEqual(failures.map((e) => (e as Error).message), ['piece failed']);
  } finally {
    process.off('uncaughtException', onError);
    for (const listener of listeners) if (listener !== onError) process.on('uncaughtException', listener as (error: Error) => void);
  }
});

test('under pieces that never let it empty, the queue keeps no slot for those already run', async () => {
  const queue = new TurnQueue();
  let ran = 0;
  let mostHeld = 0;
  // Two pieces wait at every turn, each adding one more: the queue is never empty for 5,000 turns.
  await new Promise<void>((done) => {
    const piece = () => {
      ran++;
      mostHeld = Math.max(mostHeld, queue.held);
      if (ran < 5000) queue.run(piece);
      else done();
    };
    queue.run(piece);
    queue.run(piece);
  });
  assert.equal(ran, 5000);
  assert.ok(mostHeld <= 2100, `held at most ${mostHeld} slots for 2 waiting pieces`);
});
