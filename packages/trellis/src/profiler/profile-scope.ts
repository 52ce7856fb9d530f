import type { QueryRecord } from './profiled-request.ts';
import type { HttpCallRecord } from './http-call.ts';

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
 * on and nothing recorded (PROFILER_SAMPLE=0).
 */
export class ProfileScope {
  /** `performance.now()` at the request's start, the origin of `atMs`. */
  readonly origin: number;
  readonly queries: QueryRecord[] = [];
  /** Queries past MAX_QUERIES, counted only. */
  queriesOver = 0;
  /** Outgoing HTTP requests made while the request ran (http-call.ts). */
  readonly httpCalls: HttpCallRecord[] = [];

  constructor(origin: number) {
    this.origin = origin;
  }

  addQuery(record: (atMs: number) => QueryRecord, durationMs: number): void {
    if (this.queries.length >= MAX_QUERIES) {
      this.queriesOver++;
      return;
    }
    this.queries.push(record(Math.max(0, performance.now() - this.origin - durationMs)));
  }
}
