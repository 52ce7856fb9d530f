import type { RequestSnapshot } from './profiled-request.ts';
import { PARSED_BODY_FACTOR } from './capture-body.ts';
import { boundedJsonBytes, utf8Head } from './bounded-json-bytes.ts';
import { Redaction } from './redact.ts';

/** Bodies cut here: their buffers are their own, and only theirs may be transferred (thread-profile-sink.ts). */
const cuts = new WeakSet<Uint8Array>();

/** Whether `body` was cut by `cutLargeBody`, so its memory may move to the profiler thread whole. */
export function isOwnCut(body: Uint8Array): boolean {
  return cuts.has(body);
}

/**
 * A request body far larger than a profile keeps (PROFILER_MAX_BODY × PARSED_BODY_FACTOR, by its
 * Content-Length) is redacted and cut here, on the request thread, before the snapshot is handed
 * on: otherwise each such request would cross to the profiler thread whole (a 900 KB upload, held
 * as text in the backlog and again as a parsed value there), to be cut to its first
 * PROFILER_MAX_BODY bytes anyway. The secrets found travel with the snapshot, so the profiler
 * thread still scrubs them from everything else.
 *
 * What is kept is UTF-8 bytes in a buffer of their own, outside the JS heap (bounded-json-bytes.ts
 * says why), handed to the profiler thread by transfer: `cutBodyText` reads them as text.
 */
export function cutLargeBody(snapshot: RequestSnapshot, maxBodyBytes: number, redactKeys: readonly string[]): RequestSnapshot {
  const r = snapshot.request;
  if (r.bodyNote !== null || r.body === undefined || r.body === null) return snapshot;
  const length = Number(r.headers['content-length']);
  if (!(length > maxBodyBytes * PARSED_BODY_FACTOR)) return snapshot;
  const redaction = new Redaction(redactKeys, snapshot.secrets);
  // Every field is looked at (its secrets are scrubbed from the rest of the profile), but only the
  // beginning is encoded, at a whole character.
  const kept = typeof r.body === 'string' ? utf8Head(redaction.text(r.body), maxBodyBytes) : boundedJsonBytes(redaction.fields(r.body), maxBodyBytes);
  cuts.add(kept);
  const secrets = redaction.secrets();
  return {
    ...snapshot,
    // Its size is the body's as received (Content-Length), not of a re-encoding never built.
    request: { ...r, body: kept, bodyNote: { kind: 'cut', size: length } },
    ...(secrets.length > 0 ? { secrets } : {}),
  };
}
