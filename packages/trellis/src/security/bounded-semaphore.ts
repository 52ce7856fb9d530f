/** Thrown by `BoundedSemaphore.run` when the queue is full: the caller answers 503. */
export class SemaphoreFullError extends Error {
  constructor() {
    super('Too many tasks are waiting.');
    this.name = 'SemaphoreFullError';
  }
}

/**
 * At most `concurrency` tasks run at once; up to `maxQueue` more wait, in order; past that a task
 * is refused at once (SemaphoreFullError) rather than queued without end. Used to bound scrypt:
 * each check takes ~134 MB, so a login storm must wait, or be turned away, never multiply memory.
 */
export class BoundedSemaphore {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  concurrency: number;
  maxQueue: number;

  constructor(concurrency: number, maxQueue: number) {
    this.concurrency = concurrency;
    this.maxQueue = maxQueue;
  }

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.concurrency) {
      if (this.#waiting.length >= this.maxQueue) throw new SemaphoreFullError();
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else this.#running++;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes to the next task as it is: `running` stays the same.
      if (next) next();
      else this.#running--;
    }
  }
}
