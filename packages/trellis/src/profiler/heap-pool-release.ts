import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The `gc` function V8 exposes with --expose-gc, in the form that takes options. */
type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8 keeps the pages a collection frees, in a pool of each isolate's, for the heap to grow into
 * again, and returns them to the system only in a memory-reducing collection (one asked for under
 * memory pressure, or when the isolate goes idle: never under steady load). So a heap that once
 * grew keeps its high-water mark resident. In the profiler thread under 900 KB uploads that was
 * 60-90 MB of the process's RSS beyond what V8 reports as the heap's physical size.
 *
 * This watches the thread's heap (`observe`, after each batch stored) and asks for a
 * memory-reducing collection when it has shrunk by `minShrinkBytes` from its high-water mark since
 * the last one: that much is pooled, or was. At most once per `minIntervalMs`; such a collection
 * of the thread's heap takes 50-250 ms of its own time (a full collection repeated until nothing
 * more is freed), at its low priority, off the request thread.
 */
export class HeapPoolRelease {
  readonly #gc: Gc;
  readonly #minShrinkBytes: number;
  readonly #minIntervalMs: number;
  #highWater = 0;
  #last = -Infinity;
  /** Memory-reducing collections run so far. */
  runs = 0;

  constructor(options: { minShrinkBytes?: number; minIntervalMs?: number } = {}) {
    this.#minShrinkBytes = options.minShrinkBytes ?? 16 * 2 ** 20;
    this.#minIntervalMs = options.minIntervalMs ?? 10_000;
    // Exposed to a context made for the purpose, then withdrawn: the flag is the process's, and
    // no other context (the app's) is to find a `gc` it did not ask for.
    v8.setFlagsFromString('--expose-gc');
    try {
      this.#gc = runInNewContext('gc') as Gc;
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  }

  /** Called after work that may have grown the heap; may collect (synchronously). */
  observe(now = performance.now()): void {
    const { total_heap_size: size } = v8.getHeapStatistics();
    if (size > this.#highWater) this.#highWater = size;
    if (this.#highWater - size < this.#minShrinkBytes || now - this.#last < this.#minIntervalMs) return;
    this.#last = now;
    this.runs++;
    this.#gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    this.#highWater = v8.getHeapStatistics().total_heap_size;
  }
}
