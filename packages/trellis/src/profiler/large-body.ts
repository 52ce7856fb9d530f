import type { RequestSnapshot } from './profiled-request.ts';
import { PARSED_BODY_FACTOR } from './capture-body.ts';
import { boundedJson } from './bounded-json.ts';
import { Redaction } from './redact.ts';
import { ownString } from '../logging/cut-string.ts';

/** Text whose UTF-8 bytes are its characters, one each. */
const ASCII = /^[\x00-\x7f]*$/;

/** The longest beginning of `head` that fits `maxBytes` of UTF-8. */
function utf8Prefix(head: string, maxBytes: number): string {
  const bytes = Buffer.from(head);
  // A cut inside a multi-byte character decodes to U+FFFD: drop it.
  return bytes.length <= maxBytes ? head : bytes.subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, '');
}

/**
 * A request body far larger than a profile keeps (PROFILER_MAX_BODY × PARSED_BODY_FACTOR, by its
 * Content-Length) is redacted and cut here, on the request thread, before the snapshot is handed
 * on: otherwise each such request would cross to the profiler thread whole (a 900 KB upload, held
 * as text in the backlog and again as a parsed value there), to be cut to its first
 * PROFILER_MAX_BODY bytes anyway. The secrets found travel with the snapshot, so the profiler
 * thread still scrubs them from everything else.
 */
export function cutLargeBody(snapshot: RequestSnapshot, maxBodyBytes: number, redactKeys: readonly string[]): RequestSnapshot {
  const r = snapshot.request;
  if (r.bodyNote !== null || r.body === undefined || r.body === null) return snapshot;
  const length = Number(r.headers['content-length']);
  if (!(length > maxBodyBytes * PARSED_BODY_FACTOR)) return snapshot;
  const redaction = new Redaction(redactKeys, snapshot.secrets);
  // Every field is looked at (its secrets are scrubbed from the rest of the profile), but only the
  // beginning is encoded: a UTF-8 byte is at least one UTF-16 unit, so maxBodyBytes units hold it.
  const text = typeof r.body === 'string' ? redaction.text(r.body) : boundedJson(redaction.fields(r.body), maxBodyBytes + 1);
  const head = text.length > maxBodyBytes ? text.slice(0, maxBodyBytes + 1) : text;
  // ASCII (most JSON) is cut by characters, no UTF-8 encoding to find where; copied all the same,
  // for a slice of the body would keep the whole body alive with the snapshot.
  const kept = ASCII.test(head) ? ownString(head.slice(0, maxBodyBytes)) : utf8Prefix(head, maxBodyBytes);
  const secrets = redaction.secrets();
  return {
    ...snapshot,
    // Its size is the body's as received (Content-Length), not of a re-encoding never built.
    request: { ...r, body: kept, bodyNote: { kind: 'cut', size: length } },
    ...(secrets.length > 0 ? { secrets } : {}),
  };
}
