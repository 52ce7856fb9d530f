import v8 from 'node:v8';

/**
 * The memory figures a profile keeps: the JS heap in use when the request started and ended
 * (v8.getHeapStatistics, ~0.3 µs), and the process RSS. Reading the RSS costs ~8 µs (a read of
 * /proc), too much for every request: it is sampled at most every RSS_EVERY_MS and shared.
 */
const RSS_EVERY_MS = 250;
let rss = 0;
let rssAt = -Infinity;

export function heapUsed(): number {
  return v8.getHeapStatistics().used_heap_size;
}

export function recentRss(now = performance.now()): number {
  if (now - rssAt >= RSS_EVERY_MS) {
    rss = process.memoryUsage.rss();
    rssAt = now;
  }
  return rss;
}

/** What the snapshot carries (bytes). */
export interface MemoryRecord {
  readonly heapStart: number;
  readonly heapEnd: number;
  readonly rss: number;
}
