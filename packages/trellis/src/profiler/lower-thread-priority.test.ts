import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';

/** The nice value of a thread, from its stat line (field 19; the name in field 2 may hold spaces). */
const niceOf = (statPath: string) => Number(readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ')[16]);

test('lowers the calling thread only, not the process', { skip: process.platform !== 'linux' && 'per-thread priority is Linux only' }, async () => {
  const before = niceOf('/proc/thread-self/stat');
  const worker = new Worker(
    `import { lowerThreadPriority } from ${JSON.stringify(new URL('./lower-thread-priority.ts', import.meta.url).href)};
     import { parentPort } from 'node:worker_threads';
     import { readFileSync } from 'node:fs';
     const done = lowerThreadPriority(10);
     parentPort.postMessage({ done, stat: readFileSync('/proc/thread-self/stat', 'utf8') });`,
    { eval: true },
  );
  const [message] = (await once(worker, 'message')) as [{ done: boolean; stat: string }];
  await worker.terminate();
  assert.equal(message.done, true);
  assert.equal(Number(message.stat.split(') ')[1]!.split(' ')[16]), 10);
  assert.equal(niceOf('/proc/thread-self/stat'), before);
});
