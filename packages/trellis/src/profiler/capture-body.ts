import type { Redaction } from './redact.ts';

export interface CapturedBody {
  /** The body as text (JSON re-encoded after redaction), cut at the byte limit; null when absent. */
  readonly text: string | null;
  readonly size: number;
  readonly truncated: boolean;
  /** Why there is no text although there was a body ("binary", "stream"). */
  readonly note?: string;
}

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

/** A request body as Fastify parsed it (object for JSON, string, Buffer) for storage. */
export function captureParsedBody(body: unknown, maxBytes: number, redaction: Redaction): CapturedBody {
  if (body === undefined || body === null) return { text: null, size: 0, truncated: false };
  if (Buffer.isBuffer(body)) return { text: null, size: body.length, truncated: false, note: 'binary' };
  const text = typeof body === 'string' ? body : JSON.stringify(redaction.fields(body), null, 2);
  return { ...cut(text, maxBytes), size: Buffer.byteLength(text) };
}

/**
 * A response payload as sent, for storage. JSON bodies are redacted field by field, and kept as
 * sent (compact): the pages indent them when shown (`readableBody`), which is cheaper than
 * re-encoding every response that is never looked at.
 */
export function capturePayload(payload: string | Buffer | null, contentType: string, maxBytes: number, redaction: Redaction): CapturedBody {
  if (payload === null) return { text: null, size: 0, truncated: false, note: 'stream' };
  const size = Buffer.byteLength(payload);
  if (size === 0) return { text: null, size, truncated: false };
  if (!TEXTUAL.test(contentType)) return { text: null, size, truncated: false, note: 'binary' };
  let text = payload.toString();
  // Parsing is bounded: a huge JSON body is cut as text rather than parsed whole.
  // Parsed only when a key could be secret-named: no key fragment anywhere in the text (and no
  // escape that could spell one) means there is no field to redact.
  if (JSONISH.test(contentType) && size <= maxBytes * 4 && (redaction.mayNameSecretInJson(text) || text.includes('\\u'))) {
    try {
      text = JSON.stringify(redaction.fields(JSON.parse(text)));
    } catch {
      // Not valid JSON after all: kept as text.
    }
  }
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
