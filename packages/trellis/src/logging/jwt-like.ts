import { REDACTED } from './redact-secrets.ts';

/**
 * JSON Web Tokens in compact form (RFC 7519 §3.1, RFC 7515 §7.1) found in free text: a base64url
 * header and payload, each a JSON object and so each beginning with "eyJ" (`{"`), then a signature
 * (empty for `alg: none`). A bearer token is a credential whatever name it travels under (`?q=`,
 * `X-Foo:`, a Referer's query), so it is recognised by its value.
 *
 * Found by a scan, not a regular expression: a pattern of unbounded base64url runs around dots
 * backtracks quadratically over text made of many "eyJ" and few dots. Each run of base64url
 * characters and dots holding "eyJ" is split at its dots once: linear in the text.
 */
function jwtRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let from = text.indexOf('eyJ');
  while (from >= 0) {
    let start = from;
    while (start > 0 && isTokenChar(text.charCodeAt(start - 1))) start--;
    let end = from;
    while (end < text.length && isTokenChar(text.charCodeAt(end))) end++;
    const segments = text.slice(start, end).split('.');
    let at = start;
    for (let k = 0; k < segments.length; k++) {
      const header = segments[k]!;
      const inHeader = header.indexOf('eyJ');
      const payload = segments[k + 1];
      // A header and a payload of at least "eyJ" and six more characters, and a signature after
      // a second dot (it may be empty).
      if (inHeader >= 0 && header.length - inHeader >= 9 && payload !== undefined && payload.startsWith('eyJ') && payload.length >= 9 && k + 2 < segments.length) {
        const tokenEnd = at + header.length + 1 + payload.length + 1 + segments[k + 2]!.length;
        ranges.push([at + inHeader, tokenEnd]);
        at = tokenEnd + 1;
        k += 2;
      } else at += header.length + 1;
    }
    from = text.indexOf('eyJ', end);
  }
  return ranges;
}

/** Base64url's alphabet and the dot between a token's parts. */
function isTokenChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 46;
}

/** Whether `text` holds something shaped like a JWT. */
export function holdsJwt(text: string): boolean {
  return text.includes('eyJ') && jwtRanges(text).length > 0;
}

/** `text` with every JWT-shaped run replaced by "[redacted]"; `onJwt` hears each one removed. */
export function replaceJwts(text: string, onJwt?: (token: string) => void): string {
  if (!text.includes('eyJ')) return text;
  const ranges = jwtRanges(text);
  if (ranges.length === 0) return text;
  let out = '';
  let last = 0;
  for (const [start, end] of ranges) {
    onJwt?.(text.slice(start, end));
    out += text.slice(last, start) + REDACTED;
    last = end;
  }
  return out + text.slice(last);
}

/** What separates the parts of a URL (and of text around one): an encoded JWT lies between two. */
const DELIMITERS = /([\s/?#&=;,"'<>]+)/;

/**
 * `text` (a URL, a query) with every run between delimiters that holds a percent-escape and decodes
 * to something JWT-shaped replaced whole: `?q=%65yJ…` and `eyJ…%2EeyJ…%2E…` are the same token to
 * the server that decodes them, so they are the same secret to redaction. `onJwt` hears each run
 * removed, as it stood. A split, not a pattern: `[^…]*%…` backtracked quadratically over a long
 * run without "%" (a 16 KB URL took seconds).
 */
export function replaceEncodedJwts(text: string, onJwt?: (run: string) => void): string {
  if (!text.includes('%')) return text;
  const parts = text.split(DELIMITERS);
  let changed = false;
  // Odd indexes are the delimiters the split kept.
  for (let i = 0; i < parts.length; i += 2) {
    const run = parts[i]!;
    if (!run.includes('%')) continue;
    const decoded = lenientlyDecoded(run);
    if (decoded === run || !holdsJwt(decoded)) continue;
    onJwt?.(run);
    parts[i] = REDACTED;
    changed = true;
  }
  return changed ? parts.join('') : text;
}

/** Whether `text` holds a percent-encoded run that decodes to something JWT-shaped. */
export function holdsEncodedJwt(text: string): boolean {
  if (!text.includes('%')) return false;
  let found = false;
  replaceEncodedJwts(text, () => (found = true));
  return found;
}

/**
 * `run` with its escapes decoded as a lenient reader (URLSearchParams) would: a malformed escape
 * or a byte that is no UTF-8 beside the token must not hide it, so each run of escapes is decoded
 * on its own, and one that is not UTF-8 byte by byte.
 */
function lenientlyDecoded(run: string): string {
  return run.replaceAll('+', ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return Buffer.from(escapes.replaceAll('%', ''), 'hex').toString('latin1');
    }
  });
}
