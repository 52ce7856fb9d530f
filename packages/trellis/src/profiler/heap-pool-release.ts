import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The `gc` function V8 exposes with --expose-gc, in the form that takes options. */
type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's `gc`: the global one when the process was started with --expose-gc (the flag then stays
 * as it was), else from a context made for the purpose, the flag set only meanwhile: it is the
 * process's, and no other context (the app's, another thread's) is to find a `gc` it did not ask
 * for.
 */
function exposedGc(): Gc {
  const global = (globalThis as { gc?: unknown }).gc;
  if (typeof global === 'function') return global as Gc;
  v8.setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as Gc;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/**
 * V8 keeps the pages a collection frees, in a pool of each isolate's, for the heap to grow into
 * again, and returns them to the system only in a memory-reducing collection (one asked for under
 * memory pressure, or when the isolate goes idle: never under steady load). So a busy thread keeps
 * its heap's high-water mark resident, and more: under 900 KB uploads the profiler thread's pool
 * was 60-90 MB of the process's RSS beyond what V8 reports as its heap's physical size.
 *
 * The profiler thread calls `observe` after each batch it stored; once `intervalMs` has passed
 * since the last, it runs a memory-reducing collection of its own heap. That takes the thread
 * 20-250 ms (a full collection repeated until nothing more is freed: more for a heap holding
 * uploads), at its low priority, off the request thread: about 1 % of one core at most. An idle
 * thread runs none (V8's memory reducer does then).
 */
export class HeapPoolRelease {
  readonly #gc: Gc;
  readonly #intervalMs: number;
  #last: number;
  /** Memory-reducing collections run so far. */
  runs = 0;

  constructor(options: { intervalMs?: number; now?: number } = {}) {
    this.#intervalMs = options.intervalMs ?? 10_000;
    this.#last = options.now ?? performance.now();
    this.#gc = exposedGc();
  }

  /** Called after work that may have grown the heap; may collect (synchronously). */
  observe(now = performance.now()): void {
    if (now - this.#last < this.#intervalMs) return;
    this.#last = now;
    this.runs++;
    this.#gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  }
}
