import type { ApiRecord, PackedApiRecord } from './api-record.ts';
import type { PackedMarks } from './packed-marks.ts';
import type { MemoryRecord } from './memory-sample.ts';
import type { HttpCallRecord } from './http-call.ts';
import type { RouteTrace } from './route-trace.ts';
import type { SecurityRecord } from './security-record.ts';
import type { ChainedException } from '../errors/flatten-error.ts';
import type { LogRecord } from '../logging/log-record.ts';
import type { Redaction } from './redact.ts';
import type { CpuSample } from './cpu/cpu-profile.ts';

/**
 * The named instants of a request (lifecycle phase boundaries), as two parallel arrays: no object
 * per mark while the request runs, and whole microseconds since the request started, which is
 * the precision a profile keeps and which JSON writes much faster than a fraction of a
 * millisecond (0.6 µs of a GET /books/1 snapshot's 3.7 were its six marks).
 */
export interface TimelineMarks {
  readonly names: readonly string[];
  readonly atUs: readonly number[];
}

/** The request as the profiler captured it, before redaction. */
export interface CapturedRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly url: string;
  readonly protocol: string;
  /** The Host the client addressed (after trusted proxies); empty when it sent none. */
  readonly host: string;
  readonly httpVersion: string;
  /** Client address in IPv4 form (after trusted proxies). */
  readonly ip: string;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
  /** The body as parsed (JSON value, string); undefined when none or not kept (see `bodyNote`). */
  readonly body: unknown;
  /** Set when the body is not kept: raw bytes (their count), or a stream the route reads itself. */
  readonly bodyNote:
    | { readonly kind: 'binary'; readonly size: number }
    | { readonly kind: 'stream' }
    /** A large body, redacted and cut on the request thread (`body` is the kept beginning, UTF-8 bytes of its own; cut-body-text.ts reads them): see large-body.ts. */
    | { readonly kind: 'cut'; readonly size: number }
    | null;
  /** The matched route pattern, null when none matched. */
  readonly route: string | null;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface CapturedResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, unknown>>;
  /**
   * The body as sent, as text ('' for a body whose type is not textual: only its size is kept);
   * null for a stream. A body far over the profiler's limit is captured as its beginning only.
   */
  readonly payload: string | null;
  /** Bytes of the whole body as sent. */
  readonly size: number;
  /**
   * The header block as written to the socket, where the request thread kept it so (HTTP/1.x):
   * `headers` is then empty until the block is read (wire-headers.ts), on the profiler thread or
   * before collectors run on the request thread. Never in a built profile.
   */
  readonly wire?: string;
}

/**
 * One recorded request (or sub-request) as plain data: taken on the request thread once the
 * response is sent, it is all the rest of the profiler sees of it. It holds nothing but what a
 * structured clone carries (no class instances), so it can be built into a profile on another
 * thread. Nothing in it is redacted yet.
 */
export interface RequestSnapshot {
  readonly token: string;
  readonly parentToken: string | null;
  /** Tokens of this request's sub-requests, in order. */
  readonly children: readonly string[];
  readonly request: CapturedRequest;
  /** Set when this profile is a sub-request (e.g. the error rendering one). */
  readonly subRequest: { readonly purpose: string; readonly contentType: string | null } | null;
  /** Epoch ms. */
  readonly startTime: number;
  readonly durationMs: number;
  readonly statusCode: number;
  /** Packed as the request thread hands them on (packed-marks.ts); whole in older profiles. */
  readonly marks: TimelineMarks | PackedMarks;
  /**
   * The last error of the request and its causes, outermost first, with their stack text (parsed
   * into frames where the profile is built); empty when none was thrown.
   */
  readonly exception: readonly ChainedException[];
  readonly logs: readonly LogRecord[];
  /** Database queries run on behalf of the request, in order (absent in older profiles). */
  readonly queries?: readonly QueryRecord[];
  /** Queries run past the per-request cap, counted and not kept. */
  readonly queriesNotKept?: number;
  /**
   * The methods the routed path allows (null: no route has it), and for a 404 or 405 why each
   * route did not answer (route-trace.ts). Absent for sub-requests and older profiles.
   */
  readonly routing?: { readonly path: string; readonly methods: readonly string[] | null; readonly trace?: RouteTrace };
  /** Outgoing HTTP requests (`fetch`) made while the request ran (absent when none). */
  readonly httpCalls?: readonly HttpCallRecord[];
  /** JS heap in use at start and end, and the process RSS (sampled), in bytes (absent in older profiles). */
  readonly memory?: MemoryRecord;
  /**
   * The resource operation that ran: its stages and the format negotiation (absent for other
   * routes). Packed as the request thread hands it on (api-record.ts); whole in older profiles.
   */
  readonly api?: ApiRecord | PackedApiRecord;
  /** Authentication, votes and access decisions, in order (absent when there were none). */
  readonly security?: readonly SecurityRecord[];
  /** The CPU profile of a request that asked for one (X-Trellis-Profile-CPU), capped; absent otherwise. */
  readonly cpu?: CpuSample;
  readonly response: CapturedResponse | null;
  /** Data of the collectors that ran on the request thread (those the app added), by name. */
  readonly collected: Readonly<Record<string, unknown>>;
  /**
   * Values those collectors redacted: removed from every panel where the profile is built. Never
   * stored. Absent when no collector ran on the request thread.
   */
  readonly secrets?: readonly string[];
}

/** What a collector is given: the snapshot, the body limit, and the profile's redaction. */
/** One query as the data layer published it (`trellis:db:query`). */
export interface QueryRecord {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly durationMs: number;
  /** When it started, in ms from the request's start. */
  readonly atMs: number;
  readonly error: string | null;
  /** Rows returned or affected, when the driver said. */
  readonly rows?: number;
  /** Where the app ran it (file:line), taken for a statement's second run only: the N+1 suspect's origin. */
  readonly origin?: string;
  /** Run on a connection other than the app's database (DbQueryEvent.foreign): not explained. */
  readonly foreign?: true;
}

export interface ProfiledRequest extends RequestSnapshot {
  /** Unpacked (`profiledRequest`): collectors read the record and the marks whole. */
  readonly api?: ApiRecord;
  readonly marks: TimelineMarks;
  readonly maxBodyBytes: number;
  /** Redaction for this profile: collectors pass request-derived values through it. */
  readonly redaction: Redaction;
}
