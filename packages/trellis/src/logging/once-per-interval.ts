/**
 * For faults that repeat on every request while they last (a database that is away, a profile
 * store that fails): lets one log line through per interval, saying how many occurrences it
 * stands for. An outage then writes a few lines, not one per request (and no stack per request).
 */
export class OncePerInterval {
  readonly #intervalMs: number;
  #last = Number.NEGATIVE_INFINITY;
  #count = 0;

  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  /** Counts an occurrence; returns how many occurred since the last line when one is due, else null. */
  hit(now = Date.now()): number | null {
    this.#count++;
    if (now - this.#last < this.#intervalMs) return null;
    const count = this.#count;
    this.#last = now;
    this.#count = 0;
    return count;
  }

  /** Occurrences counted since the last line (not yet reported). */
  get unreported(): number {
    return this.#count;
  }
}
