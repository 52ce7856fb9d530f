import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import { channels, publish } from '../observe/channels.ts';
import { requestScope, type RequestScope } from './request-scope.ts';
import type { LogRecord } from '../logging/log-record.ts';

/**
 * A child request context, after Symfony's sub-requests: errors are rendered "as if" by a second
 * request to the same URL, with its own identity and log, linked to the failing one. Observers
 * (the profiler) see it start and end and can record it as a child of its parent.
 */
export interface SubRequest {
  readonly id: string;
  readonly parent: FastifyRequest;
  readonly method: string;
  readonly url: string;
  /** Why the sub-request exists, e.g. "error". */
  readonly purpose: string;
  readonly startedAt: number;
  readonly logs: LogRecord[];
  /** Filled in when it ends. */
  statusCode: number;
  contentType: string | null;
  durationMs: number;
}

export interface SubRequestResult<T> {
  readonly statusCode: number;
  readonly contentType: string | null;
  readonly value: T;
}

/**
 * Runs `render` as a sub-request of `parent`. A sub-request exists only where something can see
 * it: in the debug configuration (the parent has a request scope, whose log the child gets) or
 * when an observer subscribes. Otherwise (production) `render` is simply called.
 */
export function runSubRequest<T>(parent: FastifyRequest, purpose: string, render: (sub: SubRequest | null) => SubRequestResult<T>): T {
  const observed = channels.subRequestStart.hasSubscribers || channels.subRequestEnd.hasSubscribers;
  if (parent.trellisScope === null && !observed) return render(null).value;
  const sub: SubRequest = {
    id: randomUUID(),
    parent,
    method: parent.method,
    url: parent.url,
    purpose,
    startedAt: Date.now(),
    logs: [],
    statusCode: 0,
    contentType: null,
    durationMs: 0,
  };
  const t0 = performance.now();
  publish('subRequestStart', () => ({ parent, subRequest: sub }));
  const scope: RequestScope = { logs: sub.logs };
  const result = requestScope.run(scope, () => render(sub));
  sub.statusCode = result.statusCode;
  sub.contentType = result.contentType;
  sub.durationMs = performance.now() - t0;
  publish('subRequestEnd', () => ({ parent, subRequest: sub }));
  return result.value;
}
