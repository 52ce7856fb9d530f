/**
 * Test stand-in for the profiler thread (profile-sink.test.ts): the real thread, except that a
 * batch holding a snapshot of token `dead00` makes the thread exit at once, as one that hit an
 * uncaught error would. Its listener is registered before the real thread's, so it runs first.
 */
import { parentPort } from 'node:worker_threads';

parentPort!.on('message', (message: { type: string; snapshots?: readonly string[] }) => {
  if (message.type === 'profiles' && message.snapshots!.some((text) => text.includes('"token":"dead00"'))) process.exit(70);
});
await import('./profiler-thread.ts');
