import type { PackedApiRecord } from './api-record.ts';
import type { PackedMarks } from './packed-marks.ts';
import type { MemoryRecord } from './memory-sample.ts';
import type { CapturedRequest, CapturedResponse, QueryRecord, RequestSnapshot } from './profiled-request.ts';
import type { LogRecord } from '../logging/log-record.ts';
import { headerObject } from './wire-headers.ts';
import { packRouting, unpackRouting, type PackedRouting } from './packed-route-trace.ts';

/**
 * A snapshot as the request thread hands it on and a deferred record stores it: its fixed fields
 * as arrays in a fixed order, not objects. JSON.stringify pays for every value it writes, a key as
 * much as the value after it (V8 13.6: about 200 instructions for a property before its value),
 * and a snapshot of GET /books/1 had some sixty keys of its own; packed, its text is a quarter
 * shorter and encoding it (packing included) a quarter cheaper, on the request thread, and the
 * profiler thread's text test (may-hold-secret.ts) visits a third of the keys.
 *
 * Only the snapshot's own structure is packed. What the app or the client named (headers, query,
 * parameters, bodies, log record contexts, collected data, security and routing records) stays
 * an object, with its keys in the text as JSON writes them: the text test finds secret-named keys
 * there, and nothing redaction looks at was ever among the fields packed. One exception: a 404's
 * route trace travels as one string (packed-route-trace.ts). It holds the app's route patterns
 * and their methods, nothing the client sent and nothing redaction looks for.
 *
 * The first element is the format, so a text begins `[3,"<token>",`; a format 2 text is one
 * stored by the previous version (see FORMAT_2), and an object a snapshot stored unpacked, by an
 * older one.
 */
export type PackedSnapshot = readonly [typeof PACKED_FORMAT, ...unknown[]];

export const PACKED_FORMAT = 3;

/**
 * Format 2 lacked the last two places of format 3: its optional fields were absent when none was
 * there, and its response headers were always in the response's place. Format 3 always has the
 * optional fields' place (null when none) so that the response headers, which travel beside the
 * text as the header block written to the socket (wire-headers.ts), can be appended after it by
 * the profiler thread (`withWireHeaders`).
 */
const FORMAT_2 = 2;

/** The fields a snapshot has only sometimes: one object after the rest, absent when none is there. */
type Extra = Pick<RequestSnapshot, 'queriesNotKept' | 'security' | 'routing' | 'httpCalls' | 'cpu' | 'secrets'>;

/** The optional fields as packed: a 404's or 405's route trace as the text of it (packed-route-trace.ts). */
type PackedExtra = Omit<Extra, 'routing'> & { readonly routing?: PackedRouting };

/** What of a snapshot travels beside its text instead of in it (thread-profile-sink.ts). */
export interface Beside {
  /** The response body: its place in the text is null. */
  readonly payload: boolean;
  /** The request body, cut: its place in the text is null. */
  readonly body: boolean;
  /** The response's header block (CapturedResponse.wire): the headers' place in the text is null. */
  readonly wire?: boolean;
}

const NOTHING_BESIDE: Beside = { payload: false, body: false };

function packRequest(r: CapturedRequest, bodyBeside: boolean): unknown[] {
  const packed: unknown[] = [r.method, r.url, r.protocol, r.host, r.httpVersion, r.ip, r.headers, r.query, r.bodyNote, r.route, r.params];
  // Last, and only when there is one: JSON writes an absent body (undefined) in an array as null,
  // which is a body of its own (`null` sent as JSON).
  if (bodyBeside) packed.push(null);
  else if (r.body !== undefined) packed.push(r.body);
  return packed;
}

function unpackRequest(p: readonly unknown[]): CapturedRequest {
  const [method, url, protocol, host, httpVersion, ip, headers, query, bodyNote, route, params] = p as [string, string, string, string, string, string, Record<string, unknown>, Record<string, unknown>, CapturedRequest['bodyNote'], string | null, Record<string, unknown>];
  // As JSON leaves an object's undefined body: absent.
  return { method, url, protocol, host, httpVersion, ip, headers, query, ...(p.length > 11 && { body: p[11] }), bodyNote, route, params } as CapturedRequest;
}

/*
 * Numbers are written as integers where the profile keeps them so: JSON writes a small integer
 * several times faster than a double (V8's shortest-digits conversion), and a snapshot had seven.
 * A log record's time is counted from the request's start (epoch milliseconds, both integers:
 * Date.now()); durations and offsets are whole microseconds, the precision recordedQuery and the
 * snapshot's duration already keep.
 */
const us = (ms: number): number => Math.round(ms * 1000);

const packLog = (l: LogRecord, startTime: number): unknown[] => [l.time - startTime, l.level, l.channel, l.message, l.context];

function unpackLog(p: readonly unknown[], startTime: number): LogRecord {
  const [time, level, channel, message, context] = p as [number, string, string, string, Record<string, unknown>];
  return { time: startTime + time, level, channel, message, context };
}

function packQuery(q: QueryRecord): unknown[] {
  const packed: unknown[] = [q.sql, q.parameters, us(q.durationMs), us(q.atMs), q.error];
  // The optional fields in order, each written once one after it is there.
  if (q.rows !== undefined || q.origin !== undefined || q.foreign !== undefined) packed.push(q.rows ?? null);
  if (q.origin !== undefined || q.foreign !== undefined) packed.push(q.origin ?? null);
  if (q.foreign !== undefined) packed.push(true);
  return packed;
}

function unpackQuery(p: readonly unknown[]): QueryRecord {
  const [sql, parameters, durationMs, atMs, error, rows, origin, foreign] = p as [string, unknown[], number, number, string | null, number | null | undefined, string | null | undefined, true | undefined];
  return { sql, parameters, durationMs: durationMs / 1000, atMs: atMs / 1000, error, ...(rows != null && { rows }), ...(origin != null && { origin }), ...(foreign === true && { foreign }) };
}

function packResponse(r: CapturedResponse, beside: Beside): unknown[] {
  // A header block that does not travel beside the text is read into the text here.
  const headers = r.wire === undefined ? r.headers : beside.wire === true ? null : headerObject(r.wire);
  return [r.statusCode, headers, beside.payload ? null : r.payload, r.size];
}

function unpackResponse(p: readonly unknown[], wireHeaders: Record<string, unknown> | undefined): CapturedResponse {
  const [statusCode, headers, payload, size] = p as [number, Record<string, unknown> | null, string | null, number];
  return { statusCode, headers: wireHeaders ?? headers ?? {}, payload, size };
}

function extraOf(s: RequestSnapshot): PackedExtra | null {
  if (s.queriesNotKept === undefined && s.security === undefined && s.routing === undefined && s.httpCalls === undefined && s.cpu === undefined && s.secrets === undefined) return null;
  const extra: { -readonly [K in keyof PackedExtra]: PackedExtra[K] } = {};
  if (s.queriesNotKept !== undefined) extra.queriesNotKept = s.queriesNotKept;
  if (s.security !== undefined) extra.security = s.security;
  if (s.routing !== undefined) extra.routing = packRouting(s.routing);
  if (s.httpCalls !== undefined) extra.httpCalls = s.httpCalls;
  if (s.cpu !== undefined) extra.cpu = s.cpu;
  if (s.secrets !== undefined) extra.secrets = s.secrets;
  return extra;
}

/** The snapshot packed, with what travels `beside` it left out; its duration kept to the microsecond. */
export function packSnapshot(s: RequestSnapshot, beside: Beside = NOTHING_BESIDE): PackedSnapshot {
  const { marks, memory, api, response } = s;
  const packed: [typeof PACKED_FORMAT, ...unknown[]] = [
    PACKED_FORMAT,
    s.token,
    s.parentToken,
    s.children,
    packRequest(s.request, beside.body),
    s.subRequest,
    s.startTime,
    us(s.durationMs),
    s.statusCode,
    // Marks and the API record come packed from the request thread (packed-marks.ts,
    // api-record.ts); whole ones (a snapshot of an older version, read back) stay objects.
    typeof marks.names === 'string' ? [marks.names, marks.atUs] : marks,
    s.exception,
    s.logs.map((l) => packLog(l, s.startTime)),
    s.queries === undefined ? null : s.queries.map(packQuery),
    memory === undefined ? null : [memory.heapStart, memory.heapEnd, memory.rss],
    api === undefined ? null : 'shape' in api ? [api.shape, api.startUs, api.durationUs] : api,
    response === null ? null : packResponse(response, beside),
    s.collected,
    extraOf(s),
  ];
  return packed;
}

/**
 * A packed text with the response headers, read from the header block that travelled beside it
 * (wire-headers.ts: `headerObject`), appended in their place, the last of format 3: run on the
 * profiler thread before the text is tested for secrets or stored, so that both see the headers
 * as an object.
 */
export function withWireHeaders(text: string, headers: Readonly<Record<string, unknown>> | null): string {
  return headers === null ? text : `${text.slice(0, -1)},${JSON.stringify(headers)}]`;
}

function isPackedSnapshot(value: unknown): value is PackedSnapshot {
  return Array.isArray(value) && (value[0] === PACKED_FORMAT || value[0] === FORMAT_2);
}

/** A snapshot as collectors read it, from a packed one (`packSnapshot`) or one stored unpacked. */
export function unpackSnapshot(value: RequestSnapshot | PackedSnapshot): RequestSnapshot {
  if (!isPackedSnapshot(value)) return value as RequestSnapshot;
  const [, token, parentToken, children, request, subRequest, startTime, durationMs, statusCode, marks, exception, logs, queries, memory, api, response, collected, extra, wireHeaders] = value as unknown as [
    number, string, string | null, string[], unknown[], RequestSnapshot['subRequest'], number, number, number,
    [string, number[]] | RequestSnapshot['marks'], RequestSnapshot['exception'], unknown[][], unknown[][] | null,
    [number, number, number] | null, [string, number[], number[]] | RequestSnapshot['api'] | null, unknown[] | null,
    RequestSnapshot['collected'], PackedExtra | null | undefined, Record<string, unknown> | undefined,
  ];
  const unpackedRequest = unpackRequest(request);
  const { routing, ...rest } = extra ?? {};
  return {
    token,
    parentToken,
    children,
    request: unpackedRequest,
    subRequest,
    startTime,
    durationMs: durationMs / 1000,
    statusCode,
    marks: Array.isArray(marks) ? ({ names: marks[0], atUs: marks[1] } satisfies PackedMarks) : marks,
    exception,
    logs: logs.map((l) => unpackLog(l, startTime)),
    ...(queries !== null && { queries: queries.map(unpackQuery) }),
    ...(memory !== null && { memory: { heapStart: memory[0], heapEnd: memory[1], rss: memory[2] } satisfies MemoryRecord }),
    ...(api != null && { api: Array.isArray(api) ? ({ shape: api[0], startUs: api[1], durationUs: api[2] } satisfies PackedApiRecord) : api }),
    response: response === null ? null : unpackResponse(response, wireHeaders),
    collected,
    ...rest,
    ...(routing !== undefined && { routing: unpackRouting(routing, unpackedRequest.method) }),
  };
}
