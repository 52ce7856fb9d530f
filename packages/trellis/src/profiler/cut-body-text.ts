import type { RequestSnapshot } from './profiled-request.ts';

/**
 * The text of a request body cut on the request thread (large-body.ts): its UTF-8 bytes, in a
 * buffer of their own; a string is text already. Null for anything else.
 */
export function cutBodyText(body: unknown): string | null {
  if (typeof body === 'string') return body;
  return body instanceof Uint8Array ? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') : null;
}

/**
 * The snapshot with a cut body read back as text, for collectors that run where the bytes are
 * (an app's collectors on the request thread, the in-process sink): a collector sees the same
 * body wherever it runs (data-collector.ts). Any other snapshot is returned as it is.
 */
export function withCutBodyText(snapshot: RequestSnapshot): RequestSnapshot {
  const { body, bodyNote } = snapshot.request;
  if (bodyNote?.kind !== 'cut' || !(body instanceof Uint8Array)) return snapshot;
  return { ...snapshot, request: { ...snapshot.request, body: cutBodyText(body) } };
}
