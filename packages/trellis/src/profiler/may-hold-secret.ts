import { holdsEncodedJwt, holdsJwt } from '../logging/jwt-like.ts';
import { Redaction, secretJsonKeys, URL_HEADERS } from './redact.ts';

/**
 * Credential headers as JSON keys: redacted whatever the key list says (redact.ts). Header names
 * arrive lower-cased from Node; the text is lower-cased anyway.
 */
const CREDENTIAL_KEY = /"(?:proxy-)?authorization"\s*:|"(?:set-)?cookie"\s*:/;
/** The profiler's own response headers, which redaction leaves alone although they hold "token". */
const PROFILER_KEYS = ['"x-debug-token":', '"x-debug-token-link":'] as const;
/** Sent on error answers only (the sub-request's profile): at most once. */
const OPTIONAL_PROFILER_KEY = '"x-previous-debug-token":';
/**
 * How a snapshot's text begins (profile-context.ts writes these fields first): its own token and
 * its parent's, keys that hold "token" but name no secret, which redaction never looks at. Text
 * that does not begin so is tested whole (and so is built before storage).
 */
const OWN_TOKENS = /^\{"token":"[0-9a-f]{6}","parenttoken":(?:null|"[0-9a-f]{6}"),/;

/**
 * Where each of the profiler's header keys ends in the text, when each occurs exactly once; null
 * when one occurs more often (it is then also something else: a field, a request header).
 */
function soleProfilerKeyEnds(text: string): number[] | null {
  const ends: number[] = [];
  for (const key of PROFILER_KEYS) {
    const at = text.indexOf(key);
    if (at < 0 || text.indexOf(key, at + 1) >= 0) return null;
    ends.push(at + key.length);
  }
  const at = text.indexOf(OPTIONAL_PROFILER_KEY);
  if (at >= 0) {
    if (text.indexOf(OPTIONAL_PROFILER_KEY, at + 1) >= 0) return null;
    ends.push(at + OPTIONAL_PROFILER_KEY.length);
  }
  return ends;
}

/**
 * Key lists whose fragments the text test can find as JSON writes them: printable ASCII without
 * `"` or `\\`. JSON escapes those two, and lower-casing a whole text is not lower-casing each key
 * alone for every script (a Greek final sigma depends on what precedes it); with such a fragment
 * every snapshot is built before storage.
 */
const textTestable = new WeakMap<readonly string[], boolean>();

function keysTestable(keys: readonly string[]): boolean {
  let testable = textTestable.get(keys);
  if (testable === undefined) textTestable.set(keys, (testable = keys.every((k) => /^[\x20-\x7e]*$/.test(k) && !/["\\]/.test(k))));
  return testable;
}

export interface SnapshotText {
  /** The snapshot as JSON, as `JSON.stringify` wrote it (so no key is spelled with \u escapes). */
  readonly json: string;
  /** The response body, which travels beside the snapshot. */
  readonly payload: string | null;
  /** The profile's absolute URL, before redaction. */
  readonly url: string;
  /** Path and query as received: what the request panel redacts. */
  readonly requestUrl: string;
  /** Whether the captured response headers hold the profiler's two headers, once each. */
  readonly profilerHeaders: boolean;
  /** Whether collectors on the request thread found secrets (they travel with the snapshot). */
  readonly secretsFound: boolean;
  /** Whether the request body is text (see SnapshotFacts.textBody): always built. */
  readonly textBody?: boolean;
}

/**
 * Whether building the snapshot's profile could redact anything: a conservative test on its text,
 * which may say yes for a snapshot without a secret, never no for one with a secret. Redaction
 * replaces values by key (credential headers, fields and query parameters named like a key
 * fragment) and then scrubs what it so removed from everywhere else: with no such key anywhere,
 * nothing is removed, so the profile built from the snapshot later is the one built now, and the
 * snapshot may be stored as it is. A snapshot that says yes is built (and redacted) before storage.
 */
export function mayHoldSecret(snapshot: SnapshotText, redactKeys: readonly string[]): boolean {
  if (snapshot.secretsFound || snapshot.textBody || !keysTestable(redactKeys)) return true;
  // A JWT is redacted under any name, wherever it stands (jwt-like.ts).
  if (holdsJwt(snapshot.json) || (snapshot.payload !== null && holdsJwt(snapshot.payload)) || holdsEncodedJwt(snapshot.json)) return true;
  const text = snapshot.json.toLowerCase();
  if (CREDENTIAL_KEY.test(text)) return true;
  // Every key naming a fragment must be one redaction leaves alone: the profiler's headers in the
  // response (a match there ends where the key does) or the snapshot's own tokens (skipped).
  const allowed = snapshot.profilerHeaders ? soleProfilerKeyEnds(text) : [];
  if (allowed === null) return true;
  const keys = secretJsonKeys(redactKeys);
  keys.lastIndex = OWN_TOKENS.exec(text)?.[0].length ?? 0;
  for (let match = keys.exec(text); match !== null; match = keys.exec(text)) {
    if (!allowed.includes(match.index + match[0].length)) return true;
  }
  const redaction = new Redaction(redactKeys);
  // A body is redacted field by field only when it is JSON: one that may spell a key with \u
  // escapes is parsed to find out (capture-body.ts), so it is built here too.
  const { payload } = snapshot;
  if (payload !== null && (redaction.mayNameSecretInJson(payload) || payload.includes('\\u'))) return true;
  // The query may hold a parameter the parsed query lacks (a schema removed it, or the app did).
  for (const url of [snapshot.requestUrl, snapshot.url]) if (redaction.url(url) !== url) return true;
  return urlHeaderMayHoldSecret(text, redaction);
}

/** The keys of URL-valued headers as JSON writes them, each followed by its value. */
const URL_HEADER_KEYS = [...URL_HEADERS].map((name) => `"${name}":`);

/**
 * Whether a URL-valued header (Referer, Location, Content-Location) holds a secret-named query
 * parameter, which redaction removes (redact.ts): each such key's string value is read back from
 * the text and tested as a URL. A value that is not a plain string counts as yes.
 */
function urlHeaderMayHoldSecret(text: string, redaction: Redaction): boolean {
  for (const key of URL_HEADER_KEYS) {
    for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + key.length)) {
      const start = at + key.length;
      if (text[start] !== '"') return true;
      let end = start + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      let value: unknown;
      try {
        value = JSON.parse(text.slice(start, end + 1));
      } catch {
        return true;
      }
      if (typeof value !== 'string' || redaction.url(value) !== value) return true;
    }
  }
  return false;
}
