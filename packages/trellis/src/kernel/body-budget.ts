interface Waiter {
  readonly bytes: number;
  readonly start: () => void;
}

/**
 * How many bytes of request bodies the process reads into memory at once (BODY_MEMORY).
 *
 * A body that would take the total past the limit waits, unread: its bytes stay in the kernel's
 * socket buffer, and TCP's flow control holds its client back once that is full (RFC 9293
 * §3.8.6). So the memory that bodies take is bounded by the limit, not by how many connections
 * upload at once: a hundred clients sending 900 KB each held ~90 MB of chunks and joined copies
 * waiting for their turn, and the process's peak followed.
 *
 * A body is admitted whatever its size when no other is being read, so none waits for ever
 * (BODY_LIMIT bounds each). Waiters are admitted in arrival order: a large body is not overtaken
 * by a stream of smaller ones. A waiting request is still under REQUEST_TIMEOUT's deadline.
 */
export class BodyBudget {
  readonly #limit: number;
  #used = 0;
  #reading = 0;
  readonly #waiting: Waiter[] = [];

  /** @param limit bytes that bodies being read may hold together */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Bytes held by the bodies being read. */
  get used(): number {
    return this.#used;
  }

  /** Bodies waiting to be read. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Calls `start` once `bytes` may be read: at once when they fit, else when enough is given
   * back. Returns `done`, to be called once whatever happens (read, refused, client gone): it
   * gives the bytes back, or withdraws a body still waiting, whose `start` is then never called.
   */
  admit(bytes: number, start: () => void): () => void {
    let state: 'waiting' | 'admitted' | 'done' = 'waiting';
    const admitted = () => {
      state = 'admitted';
      start();
    };
    const entry: Waiter = { bytes, start: admitted };
    if (this.#waiting.length === 0 && this.#fits(bytes)) this.#take(entry);
    else this.#waiting.push(entry);
    return () => {
      if (state === 'done') return;
      if (state === 'waiting') {
        const i = this.#waiting.indexOf(entry);
        if (i >= 0) this.#waiting.splice(i, 1);
      } else {
        this.#used -= bytes;
        this.#reading -= 1;
      }
      state = 'done';
      this.#drain();
    };
  }

  #fits(bytes: number): boolean {
    return this.#reading === 0 || this.#used + bytes <= this.#limit;
  }

  #take(entry: Waiter): void {
    this.#used += entry.bytes;
    this.#reading += 1;
    entry.start();
  }

  #drain(): void {
    while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.bytes)) this.#take(this.#waiting.shift()!);
  }
}
