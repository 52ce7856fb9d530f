/**
 * For faults that repeat on every request while they last (a database that is away, a profile
 * store that fails): lets one log line through per interval, saying how many occurrences it
 * stands for. An outage then writes a few lines, not one per request (and no stack per request).
 */
export class OncePerInterval {
  readonly #intervalMs: number;
  #last = Number.NEGATIVE_INFINITY;
  #count = 0;
  #late: NodeJS.Timeout | null = null;

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
    // This line tells what a pending late one would have (the loop was too busy to run it first).
    if (this.#late !== null) {
      clearTimeout(this.#late);
      this.#late = null;
    }
    return count;
  }

  /**
   * As `hit`; and when no line is due, `late` is called at the interval's end with the occurrences
   * still unreported then, if any: a burst that stops within an interval is still told whole (the
   * first drop of a burst made the only line, "1 request not recorded", of 1,399).
   */
  hitOrLater(late: (count: number) => void, now = Date.now()): number | null {
    const count = this.hit(now);
    if (count !== null || this.#late !== null) return count;
    this.#late = setTimeout(() => {
      this.#late = null;
      const unreported = this.#count;
      if (unreported === 0) return;
      this.#last = Date.now();
      this.#count = 0;
      late(unreported);
    }, Math.max(0, this.#intervalMs - (now - this.#last)));
    this.#late.unref();
    return null;
  }

  /** Occurrences counted since the last line (not yet reported). */
  get unreported(): number {
    return this.#count;
  }
}
