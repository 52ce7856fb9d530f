import type { CapturedResponse, RequestSnapshot } from './profiled-request.ts';

/**
 * A response's headers as the profile keeps them, taken from the header block Node wrote to the
 * socket: the status line, one `name: value` line per header field and the empty line (RFC 9112
 * §2.1). Node keeps that block on the response once it is written (`OutgoingMessage#_header`, a
 * string), so the request thread keeps a reference to one string where `reply.getHeaders()` made
 * two copies of every header and the snapshot's encoding paid for each name and value again
 * (about 12,000 of the request thread's instructions per GET /books/1, a tenth of what the
 * profiler cost it). The block travels to the profiler thread beside the snapshot's text, as its
 * response body does, and is read into an object there (`headerObject`), before any test for
 * secrets or any storage: everything after that sees headers as before.
 *
 * The block is what was sent, so a profile also shows the fields Node adds itself (Date,
 * Connection, Keep-Alive, Transfer-Encoding). An HTTP/2 response has no such block: its headers
 * are taken with `getHeaders()`, as they were.
 */

/** The header block written for a response (HTTP/1.x), or null when there is none. */
export function wireHeaderBlock(raw: unknown): string | null {
  const block = (raw as { _header?: unknown })._header;
  return typeof block === 'string' && block.startsWith('HTTP/') ? block : null;
}

/**
 * The header fields of a block as `getHeaders()` gives them: names lower-cased (RFC 9110 §5.1:
 * they are case-insensitive), a field sent on several lines as an array of their values, in
 * order (Node writes an array value so, one line each). A plain object, built in the same order
 * for the same fields, so V8 reuses its shapes (a null-prototype object is a dictionary, slower
 * to fill and to encode); a field named like a property of Object.prototype (`__proto__`) is
 * defined as an own property.
 */
export function headerObject(block: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  // The first line is the status line; the block ends with an empty line.
  for (let start = block.indexOf('\r\n') + 2; start > 1 && start < block.length; ) {
    let end = block.indexOf('\r\n', start);
    if (end < 0) end = block.length;
    if (end === start) break;
    const colon = block.indexOf(':', start);
    if (colon > start && colon < end) {
      const name = block.slice(start, colon).toLowerCase();
      // Node writes `name: value`; a value is kept as it was given, spaces inside it and all.
      const value = block.slice(block.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1, end);
      const known = headers[name];
      if (known === undefined) headers[name] = value;
      // Found: a field seen before, or one named like a property of Object.prototype (`__proto__`,
      // `constructor`), which is not the block's and is never assigned to.
      else addOwn(headers, name, value, Object.hasOwn(headers, name) ? known : undefined);
    }
    start = end + 2;
  }
  return headers;
}

/** A field's value (after those of its earlier lines, `known`), defined as an own property. */
function addOwn(headers: Record<string, string | string[]>, name: string, value: string, known: string | string[] | undefined): void {
  const merged = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  Object.defineProperty(headers, name, { value: merged, enumerable: true, writable: true, configurable: true });
}

/** The response with its headers read from the block it kept, when it kept one. */
export function withHeaderObject(response: CapturedResponse): CapturedResponse {
  if (response.wire === undefined) return response;
  return { statusCode: response.statusCode, headers: headerObject(response.wire), payload: response.payload, size: response.size };
}

/** The snapshot with its response's headers read from their block (see `withHeaderObject`). */
export function withResponseHeaders(snapshot: RequestSnapshot): RequestSnapshot {
  const { response } = snapshot;
  return response === null || response.wire === undefined ? snapshot : { ...snapshot, response: withHeaderObject(response) };
}
