import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuPerRequest, parseTaskStat, processTicks, threadTicks } from './thread-cpu.ts';

test('a stat line: the name in parentheses, then utime + stime (fields 14 and 15)', () => {
  const line = '4242 (MainThread) R 1 4242 4242 0 -1 4194304 1234 0 0 0 150 25 0 0 20 0 11 0 100 1000000 5000';
  assert.deepEqual(parseTaskStat(line), { name: 'MainThread', ticks: 175 });
});

test('a name holding spaces and parentheses is read to the last ")"', () => {
  const line = '7 (a (b) c) S 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 1 1 1';
  assert.deepEqual(parseTaskStat(line), { name: 'a (b) c', ticks: 7 });
});

test('what is not a stat line is null', () => {
  assert.equal(parseTaskStat(''), null);
  assert.equal(parseTaskStat('12 (x) S 1'), null);
});

test('microseconds per request, by thread, only for threads that ran', () => {
  const us = cpuPerRequest(new Map([['MainThread', 100], ['V8Worker', 5]]), new Map([['MainThread', 300], ['V8Worker', 5], ['WorkerThread', 10]]), 20_000);
  assert.deepEqual([...us], [['MainThread', 100], ['WorkerThread', 5]]);
});

test('this process has a main thread that used some CPU', async () => {
  let spin = 0;
  for (const end = Date.now() + 30; Date.now() < end; ) spin++;
  const ticks = await threadTicks(process.pid);
  assert.ok(spin > 0);
  assert.ok(ticks.has('MainThread') || ticks.has('node'), [...ticks.keys()].join(', '));
});

test('a whole process: at least the ticks of its main thread; a process that is gone is null', async () => {
  for (const end = Date.now() + 30; Date.now() < end; );
  const threads = await threadTicks(process.pid);
  const whole = await processTicks(process.pid);
  assert.equal(typeof whole, 'number');
  assert.ok(whole! >= (threads.get('MainThread') ?? threads.get('node') ?? 0), `${whole} ticks for the process, ${[...threads].join(', ')} by thread`);
  assert.equal(await processTicks(2 ** 22 + 1), null);
});
