import { holdsEncodedJwt, holdsJwt } from '../logging/jwt-like.ts';
import { Redaction, secretKeyPattern, URL_HEADERS } from './redact.ts';

/** Credential headers, redacted whatever the key list says (redact.ts); Node lower-cases header names. */
const CREDENTIAL_KEYS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** The profiler's own response headers, which redaction leaves alone although they hold "token": once each. */
const PROFILER_KEYS = ['x-debug-token', 'x-debug-token-link'] as const;
/**
 * Sent on error answers only (the sub-request's profile), and passed over only when the response
 * headers are known to hold it: anywhere else (a log record's field, a route parameter) a key so
 * named is redacted like any other holding "token". Found by the generated test below, which the
 * regex test this scan replaced failed too: such a field was stored unredacted.
 */
const OPTIONAL_PROFILER_KEY = 'x-previous-debug-token';

/**
 * Calls `visit` with each key of a JSON text as `JSON.stringify` writes it (no whitespace), raw
 * (escapes kept, as the key list is tested on them: see keysTestable), and where its value
 * starts; stops when `visit` says true, and says so. Outside a string a `"` opens
 * one, so jumping from quote to quote (skipping escaped ones) walks the strings, and a string
 * followed by `:` is a key. One pass with indexOf: the regex walks and searches for each header
 * key it replaced took 17 µs of the profiler thread per GET /books/1; this takes about 3.
 */
function someKey(text: string, visit: (key: string, valueAt: number) => boolean): boolean {
  for (let open = text.indexOf('"'); open >= 0; ) {
    let close = text.indexOf('"', open + 1);
    // A quote preceded by an odd number of backslashes is escaped, inside the string.
    while (close >= 0 && escaped(text, close)) close = text.indexOf('"', close + 1);
    if (close < 0) return true;
    if (text.charCodeAt(close + 1) === 0x3a && visit(text.slice(open + 1, close), close + 2)) return true;
    open = text.indexOf('"', close + 1);
  }
  return false;
}

function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}

/** Verdicts on keys seen before, per key list: the keys of one app's snapshots are few and recur. */
const MAX_VERDICTS = 4096;
const verdicts = new WeakMap<RegExp, Map<string, boolean>>();

/** Whether redaction replaces the value of a key so named: it holds a fragment, in any case. */
function secretNamed(key: string, fragment: RegExp): boolean {
  let known = verdicts.get(fragment);
  if (!known) verdicts.set(fragment, (known = new Map()));
  let verdict = known.get(key);
  if (verdict === undefined) {
    verdict = fragment.test(key.toLowerCase());
    if (known.size >= MAX_VERDICTS) known.clear();
    known.set(key, verdict);
  }
  return verdict;
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
  /** Whether they hold X-Previous-Debug-Token; absent: they do not. */
  readonly previousTokenHeader?: boolean;
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
  const text = snapshot.json;
  const fragment = secretKeyPattern(redactKeys);
  const redaction = new Redaction(redactKeys);
  const profilerKeys = [0, 0, 0];
  // Every key in the text is one the request, the app or a record named: the snapshot's own
  // fields, its tokens among them, are values of arrays (packed-snapshot.ts). Past the
  // `httpCalls` key, a `url` is an outgoing call's, which the panels redact as a URL.
  let calls = false;
  const refused = someKey(text, (raw, valueAt) => {
    if (raw === 'httpCalls') calls = true;
    const key = raw.toLowerCase();
    // The profiler's headers are passed over only as the response headers, known to be there:
    // counted here, and each must turn out to occur once.
    const profilerKey = snapshot.profilerHeaders ? profilerKeyIndex(key, snapshot.previousTokenHeader === true) : -1;
    if (profilerKey >= 0) return ++profilerKeys[profilerKey]! > 1;
    if (CREDENTIAL_KEYS.has(key) || secretNamed(raw, fragment)) return true;
    return (URL_HEADERS.has(key) || (calls && key === 'url')) && urlValueMayHoldSecret(text, valueAt, redaction);
  });
  if (refused || (snapshot.profilerHeaders && (profilerKeys[0] !== 1 || profilerKeys[1] !== 1 || profilerKeys[2] !== (snapshot.previousTokenHeader ? 1 : 0)))) return true;
  // A body is redacted field by field only when it is JSON: one that may spell a key with \u
  // escapes is parsed to find out (capture-body.ts), so it is built here too.
  const { payload } = snapshot;
  if (payload !== null && (redaction.mayNameSecretInJson(payload) || payload.includes('\\u'))) return true;
  // The query may hold a parameter the parsed query lacks (a schema removed it, or the app did).
  for (const url of [snapshot.requestUrl, snapshot.url]) if (redaction.url(url) !== url) return true;
  return false;
}

function profilerKeyIndex(key: string, previousTokenHeader: boolean): number {
  return key === PROFILER_KEYS[0] ? 0 : key === PROFILER_KEYS[1] ? 1 : previousTokenHeader && key === OPTIONAL_PROFILER_KEY ? 2 : -1;
}

/**
 * Whether a URL-valued header's value, at `at` in the text, holds a secret-named query parameter,
 * which redaction removes (redact.ts). A value that is not a plain string counts as yes.
 */
function urlValueMayHoldSecret(text: string, at: number, redaction: Redaction): boolean {
  if (text[at] !== '"') return true;
  let end = at + 1;
  while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(at, end + 1));
  } catch {
    return true;
  }
  return typeof value !== 'string' || redaction.url(value) !== value;
}
