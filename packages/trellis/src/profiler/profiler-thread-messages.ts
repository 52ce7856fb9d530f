import type { MessagePort } from 'node:worker_threads';
import type { BuildOptions } from './build-profile.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import type { RetentionOptions } from './storage/profile-storage.ts';
import { cutBodyText } from './cut-body-text.ts';
import { packSnapshot, unpackSnapshot, type PackedSnapshot } from './packed-snapshot.ts';

/*
 * What the request thread and the profiler thread say to each other (thread-profile-sink.ts,
 * profiler-thread.ts).
 */

/** What the profiler thread is started with. */
export interface ProfilerThreadData extends BuildOptions {
  /** The store to write to (`sqlite:<file>`, `redis://…`): the thread opens its own connection. */
  readonly dsn: string;
  readonly retention: RetentionOptions;
}

/** What the thread is started with: its data, and the port its batches come on (see ProfileBatch). */
export interface ProfilerThreadStart extends ProfilerThreadData {
  readonly batches: MessagePort;
}

/**
 * Snapshots travel as JSON texts (see `#encode`), each response body beside its text, and so does
 * a large request body cut on the request thread (large-body.ts): a response body is a string
 * already, posted as one copy where JSON would escape it all again (a 64 KB body cost 150 KB of
 * short-lived strings to encode, per upload), and a cut request body is UTF-8 bytes of its own,
 * transferred, not copied. Beside them goes what the thread needs to store a snapshot without
 * parsing it (snapshot-facts.ts).
 */
export interface ProfileBatch {
  readonly type: 'profiles';
  readonly snapshots: readonly string[];
  readonly payloads: readonly (string | null)[];
  /** The response's header block of each snapshot that kept one (wire-headers.ts), null for the others. */
  readonly wires: readonly (string | null)[];
  /** The cut request body of each snapshot that has one, as UTF-8 (null for the others); transferred. */
  readonly bodies: readonly (Uint8Array | null)[];
  readonly facts: readonly (string | number | null)[];
}

/**
 * Batches go on a port of their own, which the thread reads one message at a time
 * (`receiveMessageOnPort`) while what it holds is under its bound (profiler-thread.ts): a port
 * with a listener is drained whole, each message decoded into the thread's heap at once, so a
 * thread behind its work held the whole backlog decoded, and the profiles built from it (150 MB
 * of heap for a 32 MB backlog under 900 KB uploads). Waiting on the port, a batch costs its
 * serialised bytes. The thread's own port says when there is something to read, and when to close.
 */
export type ToProfilerThread = { readonly type: 'wake' } | { readonly type: 'close' };

/**
 * What a snapshot weighs in the backlog and in what the thread takes at once: its text and what
 * travels beside it (characters of the texts, bytes of the cut body).
 */
export function sentBytes(text: string, payload: string | null | undefined, wire: string | null | undefined, body: Uint8Array | null | undefined): number {
  return text.length + (payload?.length ?? 0) + (wire?.length ?? 0) + (body?.length ?? 0);
}

/** A request body cut on the request thread (UTF-8 bytes): it travels beside the snapshot. */
function cutBody(snapshot: RequestSnapshot): Uint8Array | null {
  const { body, bodyNote } = snapshot.request;
  return bodyNote?.kind === 'cut' && body instanceof Uint8Array ? body : null;
}

/**
 * A snapshot as it is sent: packed (packed-snapshot.ts), without its response body and its cut
 * request body, which travel beside it (see ToProfilerThread). An error sub-request that
 * `inherits` goes without the response and exception its parent carries for it.
 */
export function asSent(snapshot: RequestSnapshot, inherits = false, reduce?: (snapshot: RequestSnapshot) => RequestSnapshot): { snapshot: PackedSnapshot; payload: string | null; body: Uint8Array | null; wire: string | null } {
  const sent = inherits ? { ...snapshot, response: null, exception: [] } : snapshot;
  const payload = sent.response?.payload ?? null;
  const wire = sent.response?.wire ?? null;
  const body = cutBody(sent);
  // `reduce` (plain-snapshot.ts, when encoding failed) sees no cut body: it would make its bytes an
  // object of numbers, written into the text although they travel beside it.
  const packed = reduce ? reduce(body === null ? sent : { ...sent, request: { ...sent.request, body: null } }) : sent;
  return { snapshot: packSnapshot(packed, { payload: payload !== null, body: body !== null, wire: wire !== null }), payload, body, wire };
}

/** A snapshot back from its text, its response body and cut request body put back in place. */
export function decodeSnapshot(text: string, payload: string | null, body: Uint8Array | null = null): RequestSnapshot {
  const parsed = unpackSnapshot(JSON.parse(text) as RequestSnapshot | PackedSnapshot);
  const snapshot = body === null ? parsed : { ...parsed, request: { ...parsed.request, body: cutBodyText(body) } };
  return snapshot.response === null ? snapshot : { ...snapshot, response: { ...snapshot.response, payload } };
}

export type FromProfilerThread =
  | { readonly type: 'stored'; readonly count: number; /** The thread's own losses so far (a failing store). */ readonly dropped: number }
  | { readonly type: 'log'; readonly level: 'warn' | 'error'; readonly context: Record<string, unknown>; readonly message: string };
