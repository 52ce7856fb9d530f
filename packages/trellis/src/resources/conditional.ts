import { hash } from 'node:crypto';

/** A strong validator (RFC 9110 §8.8.3): a digest of the exact representation bytes. */
export function etagOf(body: string): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

function tags(header: string): string[] {
  return header.split(',').map((t) => t.trim()).filter(Boolean);
}

/** RFC 9110 §13.1.2: If-None-Match uses weak comparison; `*` matches any current representation. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  const opaque = etag.replace(/^W\//, '');
  return !tags(header).some((t) => t === '*' || t.replace(/^W\//, '') === opaque);
}

/** RFC 9110 §13.1.1: If-Match uses strong comparison against any of the current representations. */
export function ifMatchPasses(header: string | undefined, currentEtags: () => readonly string[]): boolean {
  if (header === undefined) return true;
  const wanted = tags(header);
  if (wanted.includes('*')) return true;
  const current = currentEtags();
  return wanted.some((t) => !t.startsWith('W/') && current.includes(t));
}
