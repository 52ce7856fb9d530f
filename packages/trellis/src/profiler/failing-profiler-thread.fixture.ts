/**
 * Test stand-in for the profiler thread (profile-sink.test.ts): the real thread, except that a
 * batch holding a snapshot of token `dead00` makes the thread exit at once, as one that hit an
 * uncaught error would. The thread takes its batches with `receiveMessageOnPort`
 * (profiler-thread.ts), which is wrapped here before the real thread imports it.
 */
import workerThreads from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';

const receive = workerThreads.receiveMessageOnPort;
workerThreads.receiveMessageOnPort = (port) => {
  const received = receive(port);
  const message = received?.message as { type?: string; snapshots?: readonly string[] } | undefined;
  if (message?.type === 'profiles' && message.snapshots!.some((text) => text.startsWith('[3,"dead00",'))) process.exit(70);
  return received;
};
syncBuiltinESMExports();
await import('./profiler-thread.ts');
