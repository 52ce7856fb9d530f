import { holdsJwt } from '../logging/jwt-like.ts';
import type { CapturedRequest, CapturedResponse } from './profiled-request.ts';
import type { Redaction } from './redact.ts';
import { ownString } from '../logging/cut-string.ts';
import { cutBodyText } from './cut-body-text.ts';

export interface CapturedBody {
  /** The body as text (JSON re-encoded after redaction), cut at the byte limit; null when absent. */
  readonly text: string | null;
  readonly size: number;
  readonly truncated: boolean;
  /** Why there is no text although there was a body ("binary", "stream"). */
  readonly note?: string;
}

/**
 * A JSON response body up to this many times the body limit is parsed to redact fields by name;
 * a longer one is only cut (so the request thread need not hand on more than its beginning).
 */
export const PARSED_BODY_FACTOR = 4;

const TEXTUAL = /^(text\/|application\/([\w.+-]*\+)?(json|xml|x-www-form-urlencoded|javascript)\b)/i;
const JSONISH = /^application\/([\w.+-]*\+)?json\b/i;

function cut(text: string, maxBytes: number): { text: string; truncated: boolean } {
  // A UTF-8 character takes at most 3 bytes per UTF-16 unit: short texts need no encoding to know.
  if (text.length * 3 <= maxBytes) return { text, truncated: false };
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return { text, truncated: false };
  // A cut inside a multi-byte character decodes to U+FFFD: drop it.
  return { text: bytes.subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, ''), truncated: true };
}

/**
 * A request body as Fastify parsed it (object for JSON, string; raw bytes and streams noted) for
 * storage. Its size is the body's as received (`receivedBytes`, from Content-Length) when known,
 * as a body cut on the request thread says too (large-body.ts); else that of the text kept.
 */
export function captureParsedBody(body: unknown, note: CapturedRequest['bodyNote'], maxBytes: number, redaction: Redaction, receivedBytes?: number): CapturedBody {
  if (note?.kind === 'binary') return { text: null, size: note.size, truncated: false, note: 'binary' };
  // Nobody read it (refused before the body parser ran, or a route reading its own stream): what the
  // client declared is all there is to say.
  if (note?.kind === 'stream') return { text: null, size: receivedBytes !== undefined && Number.isSafeInteger(receivedBytes) ? receivedBytes : 0, truncated: false, note: 'unread' };
  // Already redacted and cut where it was taken (large-body.ts): kept as it is.
  if (note?.kind === 'cut') {
    const text = cutBodyText(body);
    if (text !== null) return { text, size: note.size, truncated: true };
  }
  if (body === undefined || body === null) return { text: null, size: 0, truncated: false };
  const text = typeof body === 'string' ? redaction.text(body) : JSON.stringify(redaction.fields(body), null, 2);
  return { ...cut(text, maxBytes), size: receivedBytes !== undefined && Number.isSafeInteger(receivedBytes) && receivedBytes >= 0 ? receivedBytes : Buffer.byteLength(text) };
}

/**
 * A response payload as sent (`size` bytes; the payload may be its beginning only), for storage.
 * JSON bodies are redacted field by field, and kept as sent (compact): the pages indent them when
 * shown (`readableBody`), which is cheaper than re-encoding every response never looked at.
 */
export function capturePayload(payload: string | null, size: number, contentType: string, maxBytes: number, redaction: Redaction): CapturedBody {
  if (payload === null) return { text: null, size: 0, truncated: false, note: 'stream' };
  if (size === 0) return { text: null, size, truncated: false };
  if (!TEXTUAL.test(contentType)) return { text: null, size, truncated: false, note: 'binary' };
  let text = payload;
  // Parsed only when a key could be secret-named: no key fragment anywhere in the text (and no
  // escape that could spell one) means there is no field to redact.
  if (JSONISH.test(contentType) && size <= maxBytes * PARSED_BODY_FACTOR && (redaction.mayNameSecretInJson(text) || text.includes('\\u'))) {
    try {
      text = JSON.stringify(redaction.fields(JSON.parse(text)));
    } catch {
      // Not valid JSON after all: kept as text.
    }
  }
  // A JWT is a credential under any name (a token endpoint's {"access": …}), in any text body,
  // and in a body too long to be parsed (jwt-like.ts).
  if (holdsJwt(text)) text = redaction.fields(text);
  return { ...cut(text, maxBytes), size };
}

/** A captured JSON body indented for reading (pages and the JSON view); other bodies as they are. */
export function readableBody(body: CapturedBody, contentType: string | null): CapturedBody {
  if (body.text === null || body.truncated || contentType === null || !JSONISH.test(contentType)) return body;
  try {
    return { ...body, text: JSON.stringify(JSON.parse(body.text), null, 2) };
  } catch {
    return body;
  }
}

/**
 * The bytes of a text body as its Content-Length says, where Fastify made it so: for any method
 * but HEAD it sets the header to the body's UTF-8 length, or corrects one the app set (RFC 9110
 * §8.6: to a HEAD the header may describe the body a GET would have had). Counting the bytes of a
 * body again cost the request thread some 3,000 instructions per GET /books/1 (String::Utf8Length
 * reads it character by character).
 */
function sentLength(headers: Readonly<Record<string, unknown>>, method: string, text: string): number | null {
  // With trailers Fastify leaves a Content-Length the app set alone (and announces them in a
  // Trailer header): the body is counted.
  if (method === 'HEAD' || headers.trailer !== undefined || headers['transfer-encoding'] !== undefined) return null;
  const declared = headers['content-length'];
  const length = typeof declared === 'string' && /^\d{1,15}$/.test(declared) ? Number(declared) : NaN;
  // A figure a text of these characters cannot have in UTF-8 (one to three bytes each) is not taken.
  return length >= text.length && length <= text.length * 3 ? length : null;
}

/**
 * The response as the profiler hands it on, its body as text. Only the size of a binary body is
 * used, so its bytes are not kept; a body too long to be parsed for redaction is only cut later,
 * so only its beginning is kept (a UTF-8 character is at least one byte: the first n characters
 * hold the first n bytes).
 */
export function capturedResponse(statusCode: number, headers: Readonly<Record<string, unknown>>, payload: unknown, maxBodyBytes: number, method = 'GET', wire?: string): CapturedResponse {
  const captured = capturedBody(statusCode, headers, payload, maxBodyBytes, method);
  if (wire === undefined) return captured;
  // The headers are the block's (wire-headers.ts): `headers` held only the fields looked up here.
  return { statusCode, headers: NO_HEADERS, payload: captured.payload, size: captured.size, wire };
}

/** The headers of a response captured with its header block, until that is read. */
const NO_HEADERS: Readonly<Record<string, unknown>> = Object.freeze({});

function capturedBody(statusCode: number, headers: Readonly<Record<string, unknown>>, payload: unknown, maxBodyBytes: number, method: string): CapturedResponse {
  if (typeof payload !== 'string' && !(payload instanceof Uint8Array)) return { statusCode, headers, payload: null, size: 0 };
  const size = typeof payload === 'string' ? (sentLength(headers, method, payload) ?? Buffer.byteLength(payload)) : payload.byteLength;
  const end = size <= maxBodyBytes * PARSED_BODY_FACTOR ? size : maxBodyBytes + 1;
  // A cut is a string of its own: a slice would keep the whole body alive with the profile.
  if (typeof payload === 'string') return { statusCode, headers, payload: end === size ? payload : ownString(payload.slice(0, end)), size };
  const type = headers['content-type'];
  if (!TEXTUAL.test(typeof type === 'string' ? type : '')) return { statusCode, headers, payload: '', size };
  return { statusCode, headers, payload: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8', 0, end), size };
}
