/** One body read under a budget (`BodyBudget.open`). */
export interface BudgetedBody {
  /** Counts `bytes` just received (see the slow-body rule). */
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
  /** Since when its rate is measured: when it was admitted, or the end of its last window (performance.now()). */
  windowStart: number;
  /** Bytes received since `windowStart`. */
  windowBytes: number;
  readonly pause: () => void;
  readonly resume: () => void;
  /** Whether bytes of it wait to be read: its client is sending. */
  readonly sending: () => boolean;
}

/** Over how long a body's rate is measured. */
const WINDOW_MS = 1000;
/**
 * The slowest a body being read may arrive while others wait (16 KB/s, 128 kbit/s: slower than a
 * poor mobile uplink) before it gives its place back.
 */
const MIN_BYTES_PER_SECOND = 16 * 1024;

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
 * A client could announce a large body and send nothing, or a byte now and then, to hold its share
 * until REQUEST_TIMEOUT (slowloris, for bodies): a body that arrives slower than 16 KB/s over a
 * second while others wait gives its place back. It keeps only what it received, is not refused,
 * and waits at the end of the queue to be admitted again. Among waiting bodies, those whose bytes
 * have arrived go first.
 */
export class BodyBudget {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #minBytesPerSecond: number;
  #used = 0;
  readonly #reading = new Set<Reader>();
  readonly #waiting: Reader[] = [];
  #timer: NodeJS.Timeout | null = null;

  /**
   * @param limit bytes that the bodies being read may hold together
   * @param windowMs over how long a body's rate is measured
   * @param minBytesPerSecond the slowest a body being read may arrive while others wait
   */
  constructor(limit: number, windowMs = WINDOW_MS, minBytesPerSecond = MIN_BYTES_PER_SECOND) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#minBytesPerSecond = minBytesPerSecond;
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
    const reader: Reader = { size, bytes: 0, charged: 0, state: 'waiting', ended: false, windowStart: 0, windowBytes: 0, pause, resume, sending };
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
    reader.windowStart = performance.now();
    reader.windowBytes = 0;
    this.#reading.add(reader);
  }

  #add(reader: Reader, bytes: number): void {
    if (reader.state === 'closed') return;
    reader.bytes += bytes;
    reader.windowBytes += bytes;
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
   * each hold an upload back for a window in turn.
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
    this.#timer = setInterval(() => this.#demoteSlow(), Math.max(10, this.#windowMs / 2));
    this.#timer.unref();
  }

  /**
   * A body being read whose window is over, and that received less than the slowest rate in it
   * while others wait, gives back what it has not received, and waits at the end of the queue.
   * One ended waits for its turn to be decoded (turn-queue.ts), not for its client: it keeps its
   * place. Having received as many bytes as it announced is not ended: an HTTP/2 stream may send
   * its Content-Length and never END_STREAM, and would hold its share for ever.
   */
  #demoteSlow(): void {
    const now = performance.now();
    for (const reader of this.#reading) {
      const elapsed = now - reader.windowStart;
      if (elapsed < this.#windowMs || reader.ended) continue;
      const slow = reader.windowBytes < (this.#minBytesPerSecond * elapsed) / 1000;
      reader.windowStart = now;
      reader.windowBytes = 0;
      if (!slow || this.#waiting.length === 0) continue;
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
