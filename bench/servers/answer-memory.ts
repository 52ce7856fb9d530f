import { getHeapSpaceStatistics } from 'node:v8';

/**
 * Answers the harness's `memory` message (over the IPC channel it opens) with
 * process.memoryUsage() after a full collection (the harness starts servers with --expose-gc),
 * so the RSS scenario can tell live JS heap growth from native growth.
 */
export function answerMemory(): void {
  if (!process.send) return;
  process.on('message', (message) => {
    if (message !== 'memory') return;
    // The young generation as it was under load, before the collection below (which may shrink it).
    const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
    (globalThis as { gc?: () => void }).gc?.();
    process.send!({ memory: { ...process.memoryUsage(), newSpace } });
  });
  // The channel must not keep a server alive on its own once it closes.
  process.channel?.unref();
}
