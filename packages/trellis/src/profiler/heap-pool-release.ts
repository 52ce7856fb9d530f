import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The `gc` function V8 exposes with --expose-gc, in the form that takes options. */
export type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Tries at taking `gc` from a new context. V8's flags are the process's, shared by its threads:
 * another thread taking its own `gc` may turn the flag off between this one's turning it on and
 * making its context (two apps in one process start two profiler threads at once; once in sixty
 * starts under load, the thread died of "gc is not defined" and what it held went unrecorded).
 * That thread is done once it has turned the flag off, so the next try finds it on.
 */
const ATTEMPTS = 16;

/**
 * V8's `gc`: the global one when the process was started with --expose-gc (the flag then stays
 * as it was), else from a context made for the purpose, the flag set only meanwhile: it is the
 * process's, and no other context (the app's, another thread's) is to find a `gc` it did not ask
 * for. Null when every try found the flag turned off by others: the caller goes without. (A
 * process started with --expose-gc-as=<name> has no `gc` and ends there too, after turning the
 * flag off: its `<name>` stays on the contexts made before.)
 */
export function exposedGc(setFlags: (flags: string) => void = v8.setFlagsFromString, global: unknown = (globalThis as { gc?: unknown }).gc): Gc | null {
  if (typeof global === 'function') return global as Gc;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    setFlags('--expose-gc');
    try {
      const gc = runInNewContext('typeof gc === "function" ? gc : null') as Gc | null;
      if (gc !== null) return gc;
    } finally {
      setFlags('--no-expose-gc');
    }
  }
  return null;
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
 * thread runs none (V8's memory reducer does then). Without a `gc` (see `exposedGc`) it runs none
 * either: the pool then stays resident, and nothing else changes.
 */
export class HeapPoolRelease {
  readonly #gc: Gc | null;
  readonly #intervalMs: number;
  #last: number;
  /** Memory-reducing collections run so far. */
  runs = 0;

  constructor(options: { intervalMs?: number; now?: number; gc?: Gc | null } = {}) {
    this.#intervalMs = options.intervalMs ?? 10_000;
    this.#last = options.now ?? performance.now();
    this.#gc = options.gc !== undefined ? options.gc : exposedGc();
  }

  /** Whether collections can be run (V8's `gc` was had). */
  get available(): boolean {
    return this.#gc !== null;
  }

  /** Called after work that may have grown the heap; may collect (synchronously). */
  observe(now = performance.now()): void {
    if (this.#gc === null || now - this.#last < this.#intervalMs) return;
    this.#last = now;
    this.runs++;
    this.#gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  }
}
