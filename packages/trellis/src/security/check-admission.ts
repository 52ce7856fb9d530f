/**
 * Password checks of one account admitted at once, at most its remaining budget. Failures are
 * counted when a check ends, so checks started together would all pass a budget read before any
 * of them counted (60 parallel guesses got 59 answers with a budget of 10). A check past the
 * budget waits for a running one to end and asks again: a failure lowers what is left, a success
 * gives its place back. So parallel guesses get no more answers than sequential ones, and the right
 * password sent by many workers at once waits a check's time instead of being refused.
 */
export class CheckAdmission {
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();
  readonly #maxWaitMs: number;

  constructor(maxWaitMs: number) {
    this.#maxWaitMs = maxWaitMs;
  }

  /**
   * Resolves, once fewer than `remaining()` checks of `key` run, to what to call when this one
   * has ended (its failure counted first); `remaining` throws when the failures alone are over
   * the budget. Null when no place came within the wait.
   */
  async admit(key: string, remaining: () => Promise<number>): Promise<(() => void) | null> {
    const deadline = performance.now() + this.#maxWaitMs;
    for (;;) {
      const left = await remaining();
      // No await between reading and taking the place: the checks that read together queue up.
      const active = this.#active.get(key) ?? 0;
      if (active < left) {
        this.#active.set(key, active + 1);
        let ended = false;
        return () => {
          if (ended) return;
          ended = true;
          this.#end(key);
        };
      }
      const wait = deadline - performance.now();
      if (wait <= 0 || !(await this.#oneEnds(key, wait))) return null;
    }
  }

  /** Checks of `key` running now (tests). */
  running(key: string): number {
    return this.#active.get(key) ?? 0;
  }

  #end(key: string): void {
    const active = (this.#active.get(key) ?? 1) - 1;
    if (active === 0) this.#active.delete(key);
    else this.#active.set(key, active);
    const waiters = this.#waiting.get(key);
    const next = waiters?.shift();
    if (waiters?.length === 0) this.#waiting.delete(key);
    next?.();
  }

  /** Whether a check of `key` ended within `ms`. */
  #oneEnds(key: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiters = this.#waiting.get(key) ?? [];
      this.#waiting.set(key, waiters);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = waiters.indexOf(wake);
        if (at >= 0) waiters.splice(at, 1);
        if (waiters.length === 0 && this.#waiting.get(key) === waiters) this.#waiting.delete(key);
        resolve(false);
      }, ms);
      waiters.push(wake);
    });
  }
}
