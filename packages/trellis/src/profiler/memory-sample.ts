import v8 from 'node:v8';

/**
 * The memory figures a profile keeps: the JS heap in use when the request started and ended, and
 * the process RSS. Reading the RSS costs ~8 µs (a read of /proc), too much for every request: it
 * is sampled at most every RSS_EVERY_MS and shared. The heap is read at most every HEAP_EVERY_MS:
 * v8.getHeapStatistics walks every heap space (about 3 µs on a loaded 2-core box, 2 % of the
 * request thread when read twice per request), and under load a dozen requests start or end in
 * the same millisecond, on the one heap they share.
 */
const RSS_EVERY_MS = 250;
const HEAP_EVERY_MS = 1;
let rss = 0;
let rssAt = -Infinity;
let heap = 0;
let heapAt = -Infinity;

export function heapUsed(now = performance.now()): number {
  if (now - heapAt >= HEAP_EVERY_MS) {
    heap = v8.getHeapStatistics().used_heap_size;
    heapAt = now;
  }
  return heap;
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
