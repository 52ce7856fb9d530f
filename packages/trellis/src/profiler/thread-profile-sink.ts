import { once } from 'node:events';
import type { HeapInfo } from 'node:v8';
import { OncePerInterval } from '../logging/once-per-interval.ts';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { asSent, sentBytes, type FromProfilerThread, type ProfileBatch, type ProfilerThreadData, type ProfilerThreadStart, type ToProfilerThread } from './profiler-thread-messages.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import type { ProfileSink } from './profile-sink.ts';
import { plainSnapshot } from './plain-snapshot.ts';
import type { PackedSnapshot } from './packed-snapshot.ts';
import { pushFacts } from './snapshot-facts.ts';
import { isOwnCut } from './large-body.ts';
import type { WriterLog } from './profile-writer.ts';
import { siblingModule } from './sibling-module.ts';

/** Snapshots handed on but not yet stored, past which new ones are dropped until the store catches up. */
const MAX_BACKLOG = 20_000;
/**
 * The same in bytes of snapshot text (PROFILER_MAX_BACKLOG): what the backlog costs in memory is
 * its bytes, so 900 KB bodies must not wait by the twenty thousand. They wait serialised on the
 * thread's port, once each: the thread decodes and builds at most a few MB of them at a time
 * (TAKEN_MAX_BYTES in profiler-thread.ts).
 */
export const DEFAULT_MAX_BACKLOG_BYTES = 32 * 1024 * 1024;
/**
 * Snapshots are posted in batches of up to this many, or after BATCH_WAIT_MS: each message has a
 * fixed cost, and wakes the thread.
 */
const BATCH_SIZE = 64;
const BATCH_WAIT_MS = 5;
/**
 * A batch holding this many bytes (a cut upload, a cut response) is posted at once: waiting saves
 * nothing for large snapshots (their copy costs more than a message), and a snapshot still held
 * when the young generation is collected is copied and counted as a survivor, which grows it.
 * Under 900 KB uploads (64 KB of each kept) the main thread's young generation held 73 MB instead
 * of 18 with the profiler off.
 */
const POST_NOW_BYTES = 64 * 1024;
/**
 * The thread's young generation, in MB. Left to itself V8 sized the thread's heap for its
 * allocation rate (every batch deserialised, every profile built and serialised): 152 MB reserved
 * for 25-47 MB live, and the process's RSS grew by 163 MB from 10,000 to 200,000 profiled requests.
 * Capped, the reservation stays near 40 MB, at the same rate. 8 rather than 16: under 900 KB
 * uploads (a 64 KB cut of each built into a profile) the process's peak RSS was 477 MB against
 * 510-552 MB, for the same profiles stored. Old space is bounded apart (below).
 */
const YOUNG_GENERATION_MB = 8;
/**
 * The thread's old generation bound, in MB: at least 512, and eight times the backlog bound, so
 * that the largest message the thread can be sent (one snapshot, at most an eighth of this: see
 * `send`) is far inside it. V8 aborts the whole process when one allocation cannot fit a worker's
 * bound, so the bound is not there to be reached. It is there because V8 sizes a heap's growth by
 * its bound: after each full collection the next one waits until the heap has grown by a factor
 * that V8 scales with the bound, from 1.3 for small bounds to 4 for large ones (heap-controller.cc,
 * MaxGrowingFactor). Left at the process's bound, the thread's heap swung between its live 30 MB
 * and 120 MB under 900 KB uploads, almost all of it garbage; bounded at 512 MB, between 38 and
 * 64 MB, for the same stored profiles.
 */
export function profilerThreadOldGenerationMb(maxBacklogBytes: number): number {
  return Math.max(512, Math.ceil((8 * maxBacklogBytes) / 2 ** 20));
}
/** A thread that failed is started again at most once per this long; failing again sooner, it stays stopped. */
const RESTART_AFTER_MS = 60_000;
/**
 * A sub-request inherits only from a parent that started at most this long before it. Retention
 * orders profiles by start time, so a slow request's profile is among the oldest when stored and
 * may be the next dropped: its sub-request must then hold what it rendered itself.
 */
const INHERIT_WITHIN_MS = 1000;
/** How long `close` waits for the thread to store what it holds before stopping it. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * Hands snapshots to the profiler thread (profiler-thread.ts), which stores them on its own
 * connection to the store: as they came when they hold no secret (their profiles are built when
 * first read), else built and redacted. The request thread pays for encoding each snapshot when it
 * is handed on, and one message per batch; building and serialising a profile of GET /books/1 here
 * cost about 13 µs. The thread answers each stored batch with one message (in order), which is
 * what `settled()` counts.
 */
export class ThreadProfileSink implements ProfileSink {
  #worker: Worker;
  /** Where batches are posted for the current thread (ProfileBatch); its own port only wakes it. */
  #batches: MessagePort;
  readonly #data: ProfilerThreadData;
  /** The thread's module: the profiler thread, or a stand-in that fails on cue (tests). */
  readonly #threadModule: URL | string;
  #lastRestart = -Infinity;
  readonly #log: WriterLog;
  #sent = 0;
  #stored = 0;
  #dead = false;
  #closing = false;
  readonly #refusals = new OncePerInterval(10_000);
  readonly #tooLarge = new OncePerInterval(10_000);
  #batch: string[] = [];
  /** Bytes of the snapshots in `#batch`. */
  #batchBytes = 0;
  #payloads: (string | null)[] = [];
  #wires: (string | null)[] = [];
  #bodies: (Uint8Array | null)[] = [];
  #facts: (string | number | null)[] = [];
  #timer: NodeJS.Timeout | null = null;
  #waiters: { readonly upTo: number; readonly resolve: () => void }[] = [];
  /** Bytes of each snapshot sent and not yet acknowledged, oldest first (from `#sizesHead`). */
  #sizes: number[] = [];
  #sizesHead = 0;
  #backlogBytes = 0;
  readonly #maxBacklogBytes: number;
  /** The largest snapshot sent: an eighth of the thread's heap bound. */
  readonly #maxSnapshotBytes: number;
  #refused = 0;
  #threadDropped = 0;
  /** What threads that were replaced had dropped. */
  #threadDroppedBefore = 0;

  constructor(data: ProfilerThreadData, log: WriterLog, maxBacklogBytes = DEFAULT_MAX_BACKLOG_BYTES, threadModule: URL | string = siblingModule('profiler-thread', import.meta.url)) {
    this.#log = log;
    this.#maxBacklogBytes = maxBacklogBytes;
    this.#maxSnapshotBytes = (profilerThreadOldGenerationMb(maxBacklogBytes) * 2 ** 20) / 8;
    this.#data = data;
    this.#threadModule = threadModule;
    [this.#worker, this.#batches] = this.#start();
  }

  #start(): [Worker, MessagePort] {
    const { port1, port2 } = new MessageChannel();
    port1.unref();
    const worker = new Worker(this.#threadModule, {
      workerData: { ...this.#data, batches: port2 } satisfies ProfilerThreadStart,
      transferList: [port2],
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: profilerThreadOldGenerationMb(this.#maxBacklogBytes) },
    });
    worker.unref();
    worker.on('message', (message: FromProfilerThread) => {
      if (worker !== this.#worker) return;
      if (message.type === 'stored') {
        this.#stored += message.count;
        this.#threadDropped = this.#threadDroppedBefore + message.dropped;
        this.#acknowledge(message.count);
        this.#wake();
      } else relay(this.#log, message);
    });
    let failure: Error | null = null;
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', (code) => {
      if (worker !== this.#worker) return;
      if (this.#closing || this.#dead) return this.#stop();
      this.#failed(failure, code);
    });
    return [worker, port1];
  }

  /**
   * The thread stopped on its own (an uncaught error, a failing native module): what it held is lost and
   * counted, and a new one takes over, unless the last one failed within RESTART_AFTER_MS.
   */
  #failed(error: Error | null, code: number): void {
    const lost = this.#sent - this.#stored;
    const why = error ? `${error.message}` : `exit code ${code}`;
    const now = performance.now();
    if (now - this.#lastRestart < RESTART_AFTER_MS) {
      this.#log.error({ err: error ?? undefined, channel: 'profiler' }, `The profiler thread stopped again (${why}): requests are no longer recorded.`);
      return this.#stop();
    }
    this.#lastRestart = now;
    this.#refused += lost;
    this.#threadDroppedBefore = this.#threadDropped;
    this.#stored = this.#sent;
    // Only what is still batched here (not yet posted) remains in the backlog.
    this.#sizes = this.#batch.map((text, i) => sentBytes(text, this.#payloads[i], this.#wires[i], this.#bodies[i]));
    this.#sizesHead = 0;
    this.#backlogBytes = this.#sizes.reduce((sum, bytes) => sum + bytes, 0);
    this.#log.error({ err: error ?? undefined, channel: 'profiler', notRecorded: lost }, `The profiler thread stopped (${why}) and was restarted; ${lost.toLocaleString('en-US')} ${lost === 1 ? 'request' : 'requests'} it held went unrecorded.`);
    this.#batches.close();
    [this.#worker, this.#batches] = this.#start();
    this.#wake();
    if (this.#batch.length > 0) this.#timer ??= setTimeout(this.#post, BATCH_WAIT_MS);
  }

  /** The profiler thread's V8 heap figures (tests bound what it decodes at once). */
  threadHeap(): Promise<HeapInfo> {
    return this.#worker.getHeapStatistics();
  }

  get dropped(): number {
    return this.#refused + this.#threadDropped;
  }

  send(snapshots: readonly RequestSnapshot[]): void {
    if (this.#dead || snapshots.length === 0) return;
    if (this.#full()) return this.#refuse(snapshots.length);
    /** The last main request sent: its sub-requests follow it, and may inherit from it. */
    let main: RequestSnapshot | null = null;
    for (let i = 0; i < snapshots.length; i++) {
      const whole = snapshots[i]!;
      // A batch may hold a burst of requests: the bound holds within it too.
      if (this.#full()) return this.#refuse(snapshots.length - i);
      // An error sub-request shares its parent's response and exception (the same objects): sent
      // once, with the parent (see SnapshotFacts.inherits).
      const inherits: boolean =
        main !== null &&
        whole.parentToken === main.token &&
        whole.response !== null &&
        whole.response === main.response &&
        whole.exception === main.exception &&
        whole.startTime - main.startTime < INHERIT_WITHIN_MS;
      const { snapshot, payload, wire, body: cut } = asSent(whole, inherits);
      // Transferred when posted: a body already handed on (the same snapshot sent twice) goes no more.
      const body = cut !== null && cut.buffer instanceof ArrayBuffer && cut.buffer.detached ? null : cut;
      const text = this.#encode(snapshot, whole, inherits);
      const bytes: number = text === null ? 0 : sentBytes(text, payload, wire, body);
      // One snapshot of more than an eighth of the thread's heap bound (a log record carrying a
      // huge object) is not sent: decoding it could exceed the bound (profilerThreadOldGenerationMb).
      const tooLarge = bytes > this.#maxSnapshotBytes;
      if (tooLarge) this.#refuseLarge(bytes);
      if (whole.parentToken === null) main = text === null || tooLarge ? null : whole;
      if (text === null || tooLarge) continue;
      this.#batch.push(text);
      this.#batchBytes += bytes;
      this.#payloads.push(payload);
      this.#wires.push(wire);
      this.#bodies.push(body);
      this.#sizes.push(bytes);
      this.#backlogBytes += bytes;
      pushFacts(this.#facts, whole, inherits, body !== null);
    }
    if (this.#batchFull()) this.#post();
    else this.#timer ??= setTimeout(this.#post, BATCH_WAIT_MS);
  }

  /** Whether the batch is to be posted now rather than after BATCH_WAIT_MS. */
  #batchFull(): boolean {
    return this.#batch.length >= BATCH_SIZE || this.#batchBytes >= POST_NOW_BYTES;
  }

  /** Whether the backlog (posted or batched, not yet stored) is at its bound, in count or bytes. */
  #full(): boolean {
    return this.#sent + this.#batch.length - this.#stored >= MAX_BACKLOG || this.#backlogBytes >= this.#maxBacklogBytes;
  }

  #refuse(count: number): void {
    this.#refused += count;
    // Under sustained overload the backlog fills and drains again and again: one line per interval.
    // The drops after a line are told at the interval's end, also when they stop before it.
    if (this.#refusals.hitOrLater(() => this.#logRefusals()) !== null) this.#logRefusals();
    if (this.#batchFull()) this.#post();
    else if (this.#batch.length > 0) this.#timer ??= setTimeout(this.#post, BATCH_WAIT_MS);
  }

  #logRefusals(): void {
    this.#log.warn({ channel: 'profiler', notRecorded: this.#refused }, `The profiler cannot keep up (${Math.round(this.#backlogBytes / 2 ** 20)} MB, ${this.#sent + this.#batch.length - this.#stored} profiles waiting): ${this.#refused.toLocaleString('en-US')} requests not recorded since start.`);
  }

  #refuseLarge(bytes: number): void {
    this.#refused++;
    if (this.#tooLarge.hit() === null) return;
    this.#log.warn({ channel: 'profiler', notRecorded: this.#refused }, `A profile of ${(bytes / 2 ** 20).toFixed(1)} MB is larger than the profiler thread takes (${(this.#maxSnapshotBytes / 2 ** 20).toFixed(0)} MB): not recorded.`);
  }

  readonly #post = (): void => {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const snapshots = this.#batch;
    const payloads = this.#payloads;
    const wires = this.#wires;
    const bodies = this.#bodies;
    const facts = this.#facts;
    if (snapshots.length === 0 || this.#dead) return;
    this.#batch = [];
    this.#batchBytes = 0;
    this.#payloads = [];
    this.#wires = [];
    this.#bodies = [];
    this.#facts = [];
    // The cut bodies' memory moves to the thread (each has a buffer of its own: large-body.ts).
    const transfer: ArrayBuffer[] = [];
    for (const body of bodies) if (body !== null && isOwnCut(body) && !transfer.includes(body.buffer as ArrayBuffer)) transfer.push(body.buffer as ArrayBuffer);
    try {
      this.#batches.postMessage({ type: 'profiles', snapshots, payloads, wires, bodies, facts } satisfies ProfileBatch, transfer);
    } catch (error) {
      // Nothing in a batch should fail to be cloned (texts, numbers, bytes); if something does,
      // the batch is lost, counted and said, and the process goes on.
      for (let i = 0; i < snapshots.length; i++) this.#backlogBytes -= this.#sizes.pop() ?? 0;
      this.#refused += snapshots.length;
      this.#log.error({ err: error, channel: 'profiler', notRecorded: this.#refused }, `The profiler could not hand ${snapshots.length} profile(s) to its thread: ${(error as Error)?.message}`);
      return;
    }
    this.#worker.postMessage({ type: 'wake' } satisfies ToProfilerThread);
    this.#sent += snapshots.length;
  };

  /**
   * A snapshot as JSON text, encoded now, while what it refers to was just touched: measured on
   * GET /books/1 under load, a structured clone of the objects cost more (V8 clones object by
   * object, checking each for a host object) than JSON.stringify now plus one copy of a string.
   * A snapshot JSON refuses (a BigInt or a cycle in a log record's context) goes with those parts
   * reduced to what JSON keeps; failing that, it goes unrecorded and says so.
   */
  #encode(packed: PackedSnapshot, whole: RequestSnapshot, inherits: boolean): string | null {
    try {
      return JSON.stringify(packed);
    } catch {
      try {
        return JSON.stringify(asSent(whole, inherits, plainSnapshot).snapshot);
      } catch (error) {
        this.#log.error({ err: error, channel: 'profiler' }, `The profiler could not hand a profile to its thread: ${(error as Error)?.message}`);
        return null;
      }
    }
  }

  /** The oldest `count` snapshots are stored: their bytes leave the backlog. */
  #acknowledge(count: number): void {
    for (let i = 0; i < count && this.#sizesHead < this.#sizes.length; i++) this.#backlogBytes -= this.#sizes[this.#sizesHead++]!;
    if (this.#sizesHead > 4096 && this.#sizesHead * 2 > this.#sizes.length) {
      this.#sizes = this.#sizes.slice(this.#sizesHead);
      this.#sizesHead = 0;
    }
  }

  async settled(): Promise<void> {
    this.#post();
    if (this.#dead || this.#stored >= this.#sent) return;
    const upTo = this.#sent;
    // Keeps the process alive while it waits: the thread alone does not.
    this.#worker.ref();
    await new Promise<void>((resolve) => this.#waiters.push({ upTo, resolve }));
    if (this.#waiters.length === 0) this.#worker.unref();
  }

  async close(): Promise<void> {
    this.#post();
    if (this.#dead) return;
    this.#closing = true;
    this.#worker.ref();
    const exited = once(this.#worker, 'exit');
    this.#worker.postMessage({ type: 'close' } satisfies ToProfilerThread);
    const timer = setTimeout(() => void this.#worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  #stop(): void {
    this.#dead = true;
    this.#batch = [];
    this.#batchBytes = 0;
    this.#payloads = [];
    this.#wires = [];
    this.#bodies = [];
    this.#facts = [];
    this.#stored = this.#sent;
    this.#wake();
  }

  #wake(): void {
    if (this.#waiters.length === 0) return;
    const still = this.#waiters.filter((w) => w.upTo > this.#stored);
    for (const w of this.#waiters) if (w.upTo <= this.#stored) w.resolve();
    this.#waiters = still;
  }
}

/** A record the thread logged, written to the app's logger. */
function relay(log: WriterLog, message: Extract<FromProfilerThread, { type: 'log' }>): void {
  const { err, ...context } = message.context as { err?: { name: string; message: string; stack?: string } };
  const error = err ? Object.assign(new Error(err.message), { name: err.name, stack: err.stack }) : undefined;
  log[message.level]({ ...context, ...(error ? { err: error } : {}) }, message.message);
}
