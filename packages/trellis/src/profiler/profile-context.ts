import type { FastifyRequest } from 'fastify';
import { peerAddress, requestScheme } from '../kernel/request-origin.ts';
import { errorChain, type ChainedException } from '../errors/flatten-error.ts';
import type { SubRequest } from '../kernel/sub-request.ts';
import type { CapturedRequest, CapturedResponse, RequestSnapshot } from './profiled-request.ts';
import type { LogRecord } from '../logging/log-record.ts';
import { cutLargeBody } from './large-body.ts';
import { ProfileScope } from './profile-scope.ts';
import type { SecurityRecord } from './security-record.ts';
import { packApi, type ApiRecord } from './api-record.ts';
import { packMarks } from './packed-marks.ts';
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
  /** The request, until `release` (the response is sent): then only what the profile keeps of it. */
  #request: FastifyRequest | null;
  #captured: RequestFacts | null = null;
  /**
   * The sub-request this context records, until `release`: then only what its snapshot reads of
   * it, for a SubRequest holds its parent request (`parent`), and through it the parent's body.
   */
  subRequest: SubRequestFacts | null;
  readonly startTime: number;
  /** `performance.now()` at the start, the origin of the marks. */
  readonly origin: number;
  readonly marks = { names: [] as string[], atUs: [] as number[] };
  route: { readonly pattern: string | null; readonly params: Readonly<Record<string, string>> } | null = null;
  readonly errors: unknown[] = [];
  readonly children: ProfileContext[] = [];
  /** The body as sent (onSend), until the response is captured (onResponse). */
  payload: unknown = null;
  /** The response as the profile keeps it, taken once sent (onResponse). */
  response: CapturedResponse | null = null;
  statusCode = 0;
  durationMs = 0;

  constructor(init: { token: string; parentToken: string | null; request: FastifyRequest; subRequest: SubRequest | null; startTime?: number; origin?: number }) {
    this.token = init.token;
    this.parentToken = init.parentToken;
    this.#request = init.request;
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

  /** The request being recorded; only while it runs (see `release`). */
  get request(): FastifyRequest {
    if (this.#request === null) throw new Error(`Profile ${this.token}: its request was released`);
    return this.#request;
  }

  /**
   * Keeps what the profile needs of the request, a large body already cut (large-body.ts), and
   * lets go of the request: its context waits a turn for the last log records before it is
   * handed on, and holding the request meanwhile held its body (a 900 KB upload, parsed), which
   * under uploads from a hundred connections was a hundred megabytes of peak RSS. A sub-request
   * shares its parent's facts (`facts`).
   */
  release(maxBodyBytes: number, redactKeys: readonly string[], facts?: RequestFacts): RequestFacts {
    const shared = facts ? withoutCutBody(facts) : cutFacts(this.#facts(), maxBodyBytes, redactKeys);
    this.#captured = this.#routed(shared);
    this.#request = null;
    // Contexts wait in the recorder's queue for a turn of the event loop, which under load is a
    // long one: each sub-request (a 422's error rendering) held its parent's 900 KB upload so,
    // 37 of them at once in one heap snapshot of the large-write soak.
    const sub = this.subRequest;
    if (sub) this.subRequest = { purpose: sub.purpose, contentType: sub.contentType, logs: sub.logs };
    return shared;
  }

  /** The facts with the route this context was dispatched to, when the router said (the `route` event). */
  #routed(facts: RequestFacts): RequestFacts {
    return this.route === null ? facts : { ...facts, request: { ...facts.request, route: this.route.pattern, params: this.route.params } };
  }

  #facts(): RequestFacts {
    const r = this.request;
    // A sub-request shows no body of its own, but carries its parent's: what it rendered may echo
    // a secret of it, which redaction must know to scrub.
    const body = r.body;
    const bodyNote = body instanceof Uint8Array ? { kind: 'binary' as const, size: body.byteLength } : isStream(body) ? { kind: 'stream' as const } : null;
    return {
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
        route: r.routeOptions?.url ?? null,
        params: (r.params as Record<string, string> | undefined) ?? {},
      },
      logs: r.trellisScope?.logs ?? [],
      secrets: null,
    };
  }

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
    const sub = this.subRequest;
    const { request, logs, secrets } = this.#captured ?? this.#routed(this.#facts());
    const snapshot: Writable<RequestSnapshot> = {
      token: this.token,
      parentToken: this.parentToken,
      children: this.children.length === 0 ? NO_CHILDREN : this.children.map((c) => c.token),
      request,
      subRequest: sub ? { purpose: sub.purpose, contentType: sub.contentType } : null,
      startTime: this.startTime,
      durationMs: this.durationMs,
      statusCode: this.statusCode,
      marks: packMarks(this.marks),
      // Described here: an Error's class, status and code do not survive a structured clone.
      exception,
      logs: sub ? sub.logs : logs,
      queries: this.scope.queries,
    } as Writable<RequestSnapshot>;
    // What only some requests have is added when there (in the order the keys always had), not
    // spread from an object made for it: a spread is a generic copy, eight per snapshot.
    if (this.scope.queriesOver > 0) snapshot.queriesNotKept = this.scope.queriesOver;
    if (this.security.length > 0) snapshot.security = this.security;
    if (this.routing) snapshot.routing = this.routing;
    if (this.memory) snapshot.memory = this.memory;
    if (this.scope.httpCalls.length > 0) snapshot.httpCalls = this.scope.httpCalls;
    if (this.api) snapshot.api = packApi(this.api, this.negotiation);
    if (this.cpuSample) snapshot.cpu = this.cpuSample;
    snapshot.response = response;
    snapshot.collected = {};
    if (secrets) snapshot.secrets = secrets;
    return snapshot;
  }
}

/** A snapshot being put together (ProfileContext.snapshot). */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The children of a request without sub-requests, most of them: shared (a snapshot is never changed). */
const NO_CHILDREN: readonly string[] = Object.freeze([]);

/** What a sub-request's snapshot reads of it (its `parent` is not among it: see ProfileContext.release). */
export type SubRequestFacts = Pick<SubRequest, 'purpose' | 'contentType' | 'logs'>;

/** What a profile keeps of its request once the response is sent (ProfileContext.release). */
export interface RequestFacts {
  readonly request: CapturedRequest;
  /** The request's log: records written after the response still land in it. */
  readonly logs: readonly LogRecord[];
  /** Secrets found in a large body cut on release (large-body.ts). */
  readonly secrets: readonly string[] | null;
}

/**
 * A parent's facts as its sub-request keeps them. A sub-request shows no body; it carries its
 * parent's so that redaction learns the secrets in it (request-collector.ts). A body cut on the
 * request thread is redacted already, its secrets travel beside it (`secrets`), and it would only
 * cross to the profiler thread a second time: up to PROFILER_MAX_BODY more per failed upload.
 */
function withoutCutBody(facts: RequestFacts): RequestFacts {
  return facts.request.bodyNote?.kind === 'cut' ? { ...facts, request: { ...facts.request, body: undefined } } : facts;
}

/** The facts with a large body redacted and cut (large-body.ts), and the secrets it held. */
function cutFacts(facts: RequestFacts, maxBodyBytes: number, redactKeys: readonly string[]): RequestFacts {
  const cut = cutLargeBody({ request: facts.request } as RequestSnapshot, maxBodyBytes, redactKeys);
  return cut.request === facts.request ? facts : { ...facts, request: cut.request, secrets: cut.secrets ?? null };
}
