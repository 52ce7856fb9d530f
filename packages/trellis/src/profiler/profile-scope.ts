import type { QueryRecord } from './profiled-request.ts';
import type { HttpCallRecord } from './http-call.ts';

/** Frames of the framework, its dependencies and Node: not where an app ran a query from. */
const NOT_APP = /node_modules|node:|\/packages\/trellis\/(src|dist)\/|\/trellis\/dist\//;

/** The first frame of the current stack in the app's own code, as path:line (relative to the working directory). */
export function appFrame(): string | null {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const line of stack.split('\n').slice(1)) {
    const m = /(?:\(|at )((?:file:\/\/)?\/[^()\s]+):(\d+):\d+\)?\s*$/.exec(line);
    if (!m || NOT_APP.test(m[1]!)) continue;
    const path = m[1]!.replace(/^file:\/\//, '');
    const cwd = `${process.cwd()}/`;
    return `${path.startsWith(cwd) ? path.slice(cwd.length) : path}:${m[2]}`;
  }
  return null;
}

/** Queries kept per request; past it they are only counted. */
export const MAX_QUERIES = 1000;

/**
 * What code running for a request reaches of its profile through `currentProfile` (an
 * AsyncLocalStorage): the events that carry no request, database queries first, are filed here.
 *
 * It holds nothing of the request itself, on purpose. An async context outlives its request in
 * every timer, pooled socket or promise created while it ran; when the store was the request's
 * whole profile context (request, body, response), each of those kept a 900 KB upload alive past
 * the young generation, and RSS under a load of large writes grew by some 200 MB with the profiler
 * on and nothing recorded (PROFILER_SAMPLE=0). For the same reason it is closed once its request
 * is recorded (`close`): what it gathered then belongs to the snapshot alone.
 */
export class ProfileScope {
  /** `performance.now()` at the request's start, the origin of `atMs`. */
  readonly origin: number;
  #queries: QueryRecord[] = [];
  /** Queries past MAX_QUERIES, counted only. */
  queriesOver = 0;
  #httpCalls: HttpCallRecord[] = [];
  #closed = false;

  /** Queries run for the request so far, in order (none once closed). */
  get queries(): readonly QueryRecord[] {
    return this.#queries;
  }

  /** Outgoing HTTP requests made while the request ran (http-call.ts); none once closed. */
  get httpCalls(): readonly HttpCallRecord[] {
    return this.#httpCalls;
  }

  constructor(origin: number) {
    this.origin = origin;
  }

  /** Runs per statement text, to tell a statement's second run (when its origin is taken). */
  #runs: Map<string, number> | null = null;
  /** The first statement run, until a second one makes `#runs`. */
  #first: string | null = null;

  /** Whether the request was recorded (or not kept): later events are not filed. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Lets go of what the scope gathered, once the request's snapshot holds it (or, for a request
   * the profiler does not keep, at its response: code after that reads no queries). The scope
   * itself stays reachable from every async context its request created, a keep-alive socket's
   * timer among them, until that ends: an upload's query parameters, each a view into the whole
   * upload, were kept alive so, one per idle connection.
   */
  close(): void {
    this.#closed = true;
    this.#queries = [];
    this.#httpCalls = [];
    this.#runs = null;
    this.#first = null;
  }

  /**
   * Files a query that ran for `durationMs`, started at `startedAt` (performance.now()) when the
   * publisher said: else it ended now.
   */
  addQuery(record: (atMs: number) => QueryRecord, durationMs: number, sql: string, startedAt?: number): void {
    if (this.#closed) return;
    if (this.#queries.length >= MAX_QUERIES) {
      this.queriesOver++;
      return;
    }
    const atMs = (startedAt ?? performance.now() - durationMs) - this.origin;
    const kept = record(atMs > 0 ? atMs : 0);
    const n = this.#run(sql);
    // A stack costs microseconds: taken once per repeated statement, never for one run once.
    this.#queries.push(n === 2 ? { ...kept, origin: appFrame() ?? undefined } : kept);
  }

  /**
   * How many times the statement has run, this run included. Most requests run one statement:
   * the map is made at the second (a map made per request was some 800 instructions of each).
   */
  #run(sql: string): number {
    if (this.#runs === null) {
      if (this.#first === null) {
        this.#first = sql;
        return 1;
      }
      this.#runs = new Map([[this.#first, 1]]);
    }
    const n = (this.#runs.get(sql) ?? 0) + 1;
    this.#runs.set(sql, n);
    return n;
  }

  /** Files an outgoing HTTP request, up to `max` per request; false when it is not kept. */
  addHttpCall(record: HttpCallRecord, max: number): boolean {
    if (this.#closed || this.#httpCalls.length >= max) return false;
    this.#httpCalls.push(record);
    return true;
  }
}
