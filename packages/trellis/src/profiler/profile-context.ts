import type { FastifyRequest } from 'fastify';
import { peerAddress, requestScheme } from '../kernel/request-origin.ts';
import { errorChain, type ChainedException } from '../errors/flatten-error.ts';
import type { SubRequest } from '../kernel/sub-request.ts';
import type { CapturedResponse, RequestSnapshot } from './profiled-request.ts';
import { ProfileScope } from './profile-scope.ts';
import type { SecurityRecord } from './security-record.ts';
import type { ApiRecord } from './api-record.ts';
import type { MemoryRecord } from './memory-sample.ts';
import type { CpuSample } from './cpu/cpu-profile.ts';

/** A body a parser handed on unread (a route that streams an upload, a proxy). */
function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { pipe?: unknown }).pipe === 'function';
}

/**
 * The profiler's mutable state for one request or sub-request on the request thread, filled by
 * hooks and channel events while the request runs. `snapshot()` turns it into the plain data the
 * rest of the profiler works on: it holds references (headers, log records, the body), so taking
 * it costs next to nothing; copying happens once, when snapshots are handed on.
 */
export class ProfileContext {
  readonly token: string;
  readonly parentToken: string | null;
  readonly request: FastifyRequest;
  readonly subRequest: SubRequest | null;
  readonly startTime: number;
  /** `performance.now()` at the start, the origin of the marks. */
  readonly origin: number;
  readonly marks = { names: [] as string[], atUs: [] as number[] };
  route: { readonly pattern: string | null; readonly params: Readonly<Record<string, string>> } | null = null;
  readonly errors: unknown[] = [];
  readonly children: ProfileContext[] = [];
  /** The body as sent (onSend), and the headers once sent (onResponse). */
  payload: unknown = null;
  responseHeaders: Readonly<Record<string, unknown>> = {};
  statusCode = 0;
  durationMs = 0;

  constructor(init: { token: string; parentToken: string | null; request: FastifyRequest; subRequest: SubRequest | null; startTime?: number; origin?: number }) {
    this.token = init.token;
    this.parentToken = init.parentToken;
    this.request = init.request;
    this.subRequest = init.subRequest;
    this.startTime = init.startTime ?? Date.now();
    this.origin = init.origin ?? performance.now();
    this.scope = new ProfileScope(this.origin);
    // An HTTP/2 stream forgets its session's socket once closed, before the snapshot is taken.
    this.#peer = init.request.raw.httpVersionMajor === 2 ? peerAddress(init.request) : null;
  }

  readonly #peer: string | null;
  /** The resource pipeline's stages and negotiation (api-record.ts), when a resource operation ran. */
  api: ApiRecord | null = null;
  /** The format negotiation (it comes before the pipeline's first stage ends). */
  negotiation: ApiRecord['negotiation'] = null;
  /** JS heap in use at the start (bytes), and the memory figures once ended (memory-sample.ts). */
  heapStart = 0;
  memory: MemoryRecord | null = null;
  /** What routing found (set when handed on, main requests only). */
  routing: RequestSnapshot['routing'] = undefined;
  /** Authentication, votes and access decisions for the request (security-record.ts). */
  readonly security: SecurityRecord[] = [];
  /** What code running for the request reaches (`currentProfile`): its queries. */
  readonly scope: ProfileScope;
  /** CPU sampling: asked for (X-Trellis-Profile-CPU), running, or neither (cpu/cpu-sampler.ts). */
  cpu: 'asked' | 'sampling' | null = null;
  /** The request's CPU profile, capped, once sampling stopped. */
  cpuSample: CpuSample | null = null;

  mark(name: string, at = performance.now()): void {
    this.marks.names.push(name);
    this.marks.atUs.push(Math.round((at - this.origin) * 1000));
  }

  /** The last error's chain (stack text, not yet parsed). */
  exception(): ChainedException[] {
    return this.errors.length === 0 ? [] : errorChain(this.errors.at(-1));
  }

  /**
   * The request as plain data. Taken one turn after the response, so its last log records are in.
   * A sub-request is given its parent's response (what it rendered) and, when it rendered the same
   * error, the parent's exception chain: the same objects, copied once.
   */
  snapshot(response: CapturedResponse | null, exception: readonly ChainedException[]): RequestSnapshot {
    const r = this.request;
    const sub = this.subRequest;
    // A sub-request shows no body of its own, but carries its parent's: what it rendered may echo
    // a secret of it, which redaction must know to scrub.
    const body = r.body;
    const bodyNote = body instanceof Uint8Array ? { kind: 'binary' as const, size: body.byteLength } : isStream(body) ? { kind: 'stream' as const } : null;
    return {
      token: this.token,
      parentToken: this.parentToken,
      children: this.children.map((c) => c.token),
      request: {
        method: r.method,
        url: r.url,
        protocol: requestScheme(r),
        // Only a Host that passed validation (see request-origin.ts); a rejected one is in the headers.
        host: r.trellisOrigin.slice(r.trellisOrigin.indexOf('://') + 3),
        httpVersion: r.raw.httpVersion,
        // A request the guard rejected has no resolved client address: the socket peer stands in.
        ip: r.clientIp || (this.#peer ?? peerAddress(r)),
        headers: r.headers,
        query: (r.query as Record<string, unknown> | undefined) ?? {},
        body: bodyNote ? undefined : body,
        bodyNote,
        route: this.route?.pattern ?? r.routeOptions?.url ?? null,
        params: this.route?.params ?? (r.params as Record<string, string> | undefined) ?? {},
      },
      subRequest: sub ? { purpose: sub.purpose, contentType: sub.contentType } : null,
      startTime: this.startTime,
      durationMs: this.durationMs,
      statusCode: this.statusCode,
      marks: this.marks,
      // Described here: an Error's class, status and code do not survive a structured clone.
      exception,
      logs: sub ? sub.logs : (r.trellisScope?.logs ?? []),
      queries: this.scope.queries,
      ...(this.scope.queriesOver > 0 ? { queriesNotKept: this.scope.queriesOver } : {}),
      ...(this.security.length > 0 ? { security: this.security } : {}),
      ...(this.routing ? { routing: this.routing } : {}),
      ...(this.memory ? { memory: this.memory } : {}),
      ...(this.scope.httpCalls.length > 0 ? { httpCalls: this.scope.httpCalls } : {}),
      ...(this.api ? { api: { ...this.api, negotiation: this.negotiation } } : {}),
      ...(this.cpuSample ? { cpu: this.cpuSample } : {}),
      response,
      collected: {},
    };
  }
}
