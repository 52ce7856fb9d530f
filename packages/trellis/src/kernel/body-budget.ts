/** One body read under a budget (`BodyBudget.open`). */
export interface BudgetedBody {
  /** Counts `bytes` just received: the body is alive (see the idle rule). */
  add(bytes: number): void;
  /** Its last byte arrived: it now waits only for its turn to be decoded, and keeps its place. */
  end(): void;
  /** The body is read, refused or abandoned: its share is given back. Idempotent. */
  close(): void;
}

interface Reader {
  /** What the body is expected to hold: its Content-Length, else the body limit. */
  readonly size: number;
  /** Bytes received. */
  bytes: number;
  /** Bytes it counts for in the budget: its size while read, what it holds while waiting. */
  charged: number;
  state: 'waiting' | 'reading' | 'closed';
  /** Whether its last byte arrived (the stream ended). */
  ended: boolean;
  /** When it was admitted or last received bytes (performance.now()). */
  lastData: number;
  readonly pause: () => void;
  readonly resume: () => void;
  /** Whether bytes of it wait to be read: its client is sending. */
  readonly sending: () => boolean;
}

/** How long a body being read may receive nothing while others wait, before it gives its place back. */
const IDLE_MS = 1000;

/**
 * How many bytes of request bodies the process reads into memory at once (BODY_MEMORY).
 *
 * A body is read once its whole size (Content-Length, else the body limit) fits beside the bodies
 * being read; until then it waits, paused: its bytes stay in the kernel's socket buffer, and TCP's
 * flow control holds its client back once that is full (RFC 9293 §3.8.6). Waiting bodies are
 * admitted in arrival order, and one is always admitted when none is being read, whatever its size
 * (BODY_LIMIT bounds it). So the memory bodies take is bounded by the limit, not by how many
 * connections upload at once: a hundred clients sending 900 KB each held ~90 MB of chunks and
 * joined copies, and the process's peak followed.
 *
 * A client could announce a large body and send nothing, to hold its share until REQUEST_TIMEOUT:
 * a body that receives nothing for a second while others wait gives its place back. It keeps only
 * what it received, and waits at the end of the queue to be admitted again. Among waiting bodies,
 * those whose bytes have arrived go first.
 */
export class BodyBudget {
  readonly #limit: number;
  readonly #idleMs: number;
  #used = 0;
  readonly #reading = new Set<Reader>();
  readonly #waiting: Reader[] = [];
  #timer: NodeJS.Timeout | null = null;

  /**
   * @param limit bytes that the bodies being read may hold together
   * @param idleMs how long a body being read may receive nothing while others wait
   */
  constructor(limit: number, idleMs = IDLE_MS) {
    this.#limit = limit;
    this.#idleMs = idleMs;
  }

  /** Bytes the bodies hold or may come to hold: the sizes of those being read, what the waiting ones hold. */
  get used(): number {
    return this.#used;
  }

  /** Bodies waiting to be read. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Counts a body of `size` bytes; it is read at once when it fits, else `pause` is called now and
   * `resume` once it is admitted (a stream's own pause and resume). `sending` says whether bytes of
   * it have arrived unread (a paused stream's buffer).
   */
  open(size: number, pause: () => void, resume: () => void, sending: () => boolean = () => true): BudgetedBody {
    const reader: Reader = { size, bytes: 0, charged: 0, state: 'waiting', ended: false, lastData: 0, pause, resume, sending };
    if (this.#waiting.length === 0 && this.#fits(reader)) this.#admit(reader);
    else {
      this.#waiting.push(reader);
      pause();
      this.#watch();
    }
    return {
      add: (bytes) => this.#add(reader, bytes),
      end: () => void (reader.ended = true),
      close: () => this.#close(reader),
    };
  }

  #fits(reader: Reader): boolean {
    return this.#reading.size === 0 || this.#used + Math.max(reader.size, reader.bytes) - reader.charged <= this.#limit;
  }

  #admit(reader: Reader): void {
    const charge = Math.max(reader.size, reader.bytes);
    this.#used += charge - reader.charged;
    reader.charged = charge;
    reader.state = 'reading';
    reader.lastData = performance.now();
    this.#reading.add(reader);
  }

  #add(reader: Reader, bytes: number): void {
    if (reader.state === 'closed') return;
    reader.bytes += bytes;
    reader.lastData = performance.now();
    // A body longer than it said (chunked past the limit is refused before): counted as it is.
    if (reader.bytes > reader.charged) {
      this.#used += reader.bytes - reader.charged;
      reader.charged = reader.bytes;
    }
  }

  #close(reader: Reader): void {
    if (reader.state === 'closed') return;
    if (reader.state === 'reading') this.#reading.delete(reader);
    else this.#waiting.splice(this.#waiting.indexOf(reader), 1);
    reader.state = 'closed';
    this.#used -= reader.charged;
    this.#drain();
  }

  /**
   * Admits waiting bodies while the next fits: the first whose client is sending, else the first.
   * Without the preference, clients that announce bodies and send nothing, queued ahead, would
   * each hold an upload back for the idle time in turn.
   */
  #drain(): void {
    while (this.#waiting.length > 0) {
      let at = this.#waiting.findIndex((reader) => reader.sending());
      if (at < 0) at = 0;
      const reader = this.#waiting[at]!;
      if (!this.#fits(reader)) break;
      this.#waiting.splice(at, 1);
      this.#admit(reader);
      reader.resume();
    }
    if (this.#waiting.length === 0 && this.#timer !== null) {
      clearInterval(this.#timer);
      this.#timer = null;
    }
  }

  /** While bodies wait, looks for bodies being read that receive nothing. */
  #watch(): void {
    if (this.#timer !== null) return;
    this.#timer = setInterval(() => this.#demoteIdle(), Math.max(10, this.#idleMs / 2));
    this.#timer.unref();
  }

  /**
   * A body being read that received nothing for the idle time gives back what it has not
   * received, and waits at the end of the queue. One ended waits for its turn to be decoded
   * (turn-queue.ts), not for its client: it keeps its place. Having received as many bytes as it
   * announced is not ended: an HTTP/2 stream may send its Content-Length and never END_STREAM,
   * and would hold its share for ever.
   */
  #demoteIdle(): void {
    const now = performance.now();
    for (const reader of this.#reading) {
      if (this.#waiting.length === 0) break;
      if (now - reader.lastData < this.#idleMs || reader.ended) continue;
      this.#reading.delete(reader);
      this.#used -= reader.charged - reader.bytes;
      reader.charged = reader.bytes;
      reader.state = 'waiting';
      this.#waiting.push(reader);
      reader.pause();
    }
    this.#drain();
  }
}
