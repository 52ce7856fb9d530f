import { holdsJwt, replaceJwts } from '../logging/jwt-like.ts';
import { redactPairs, redactQuery } from '../logging/redact-query.ts';
import { REDACTED } from '../logging/redact-secrets.ts';
import { apiKeyHash } from '../security/api-key-hash.ts';

/** Headers whose values are credentials whatever the configured key list says. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'proxy-authorization']);
/**
 * The profiler's own headers name the profile, not a credential, although "token" is a secret key
 * fragment: redacting them hid the token on its own page and made every profile a scrubbing pass.
 */
const PROFILER_HEADERS = new Set(['x-debug-token', 'x-debug-token-link', 'x-previous-debug-token']);
/**
 * Headers whose values are URLs: their secret-named query parameters are redacted as the
 * request's own are. A Referer carries the previous page's query (`/reset?token=…`) into every
 * request that page makes; Location and Content-Location may echo one back.
 */
export const URL_HEADERS = new Set(['referer', 'location', 'content-location']);
/** How deep `fields` looks; deeper subtrees are redacted whole (see `fields`). */
const MAX_DEPTH = 32;
/** How deep `scrub` looks: profiles nest `fields`' output in a few levels of their own. */
const MAX_SCRUB_DEPTH = 64;
/** A word, or words joined by - or _: inside a secret-named object, taken for vocabulary (see #remember). */
const WORD = /^[a-z]+(?:[-_ ][a-z]+)*$/i;
/** Shorter secrets are still redacted by key, but not hunted for inside free text. */
const MIN_SCRUB_LENGTH = 4;

/**
 * Redaction for one profile. Values are first replaced by key (secret headers, and body, query and
 * parameter fields whose name contains one of the configured fragments); every value so removed is
 * remembered, and a last pass (`scrub`) replaces any remaining occurrence of it anywhere in the
 * profile: in the URL, in log messages, in exception messages. So a secret sent once appears
 * nowhere in storage or pages.
 */
export class Redaction {
  readonly #pattern: RegExp;
  readonly #jsonKey: RegExp;
  readonly #seen = new Set<string>();
  readonly #learnt = new WeakSet<object>();
  /** Key → secret or not, shared by every Redaction of the same key list. */
  readonly #verdicts: Map<string, boolean>;

  /** `known`: secrets another redaction of the same request found, to be scrubbed here too. */
  constructor(keys: readonly string[], known: readonly string[] = []) {
    [this.#pattern, this.#jsonKey] = keyPatterns(keys);
    this.#verdicts = verdictsOf(this.#pattern);
    for (const secret of known) this.#seen.add(secret);
  }

  /** Every value removed so far, in the forms `scrub` looks for. */
  secrets(): string[] {
    return [...this.#seen];
  }

  /**
   * Whether a JSON text may have a secret-named field: a key fragment followed, within the same
   * string, by the string's end and a colon. A fragment in a value ("an old secret.") does not
   * count, so an ordinary body is never copied field by field. Conservative: it may say yes for
   * a value that looks like a key, never no for a key spelled out. Keys written with \u escapes
   * are the caller's to rule out.
   */
  mayNameSecretInJson(text: string): boolean {
    return this.#jsonKey.test(text.toLowerCase());
  }

  #isSecret(key: string): boolean {
    // The same few names (headers, fields, log context keys) come back on every request.
    const verdicts = this.#verdicts;
    let secret = verdicts.get(key);
    if (secret === undefined) {
      secret = this.#pattern.test(key.toLowerCase());
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      verdicts.set(key, secret);
    }
    return secret;
  }

  headers(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (value !== undefined && !PROFILER_HEADERS.has(lower) && (SECRET_HEADERS.has(lower) || this.#isSecret(lower))) {
        this.#remember(value, lower);
        out[name] = REDACTED;
      } else if (typeof value === 'string' && URL_HEADERS.has(lower)) out[name] = this.url(value);
      else if (typeof value === 'string' && holdsJwt(value)) out[name] = this.#jwts(value);
      else out[name] = value;
    }
    return out;
  }

  /**
   * Deep copy with secret-named fields replaced. Past MAX_DEPTH levels a subtree is replaced
   * whole: it is not looked into, so it cannot be kept.
   */
  fields<T>(value: T, depth = 0): T {
    if (typeof value === 'string') return (holdsJwt(value) ? this.#jwts(value) : value) as T;
    if (value === null || typeof value !== 'object') return value;
    if (depth > MAX_DEPTH) return REDACTED as T;
    if (Array.isArray(value)) return value.map((v) => this.fields(v, depth + 1)) as T;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (this.#isSecret(k) && v !== undefined && v !== null && v !== '') {
        this.#remember(v, k);
        out[k] = REDACTED;
      } else out[k] = this.fields(v, depth + 1);
    }
    return out as T;
  }

  /** A URL with the values of secret-named query parameters replaced. */
  url(url: string): string {
    return redactQuery(url, (name) => this.#isSecret(name), (value, name) => this.#remember(value, name));
  }

  /**
   * A body that arrived as text (`text/plain`, a form, anything a parser left a string), with its
   * secrets replaced: JSON is redacted field by field, `name=value&…` pairs by name. Text of any
   * other shape (JSON cut short or malformed, `password: …` lines, YAML) has the value after each
   * secret-named key replaced where it stands: the same credential is redacted whatever the
   * Content-Type it was declared with.
   */
  text(body: string): string {
    const trimmed = body.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        return JSON.stringify(this.fields(JSON.parse(body)), null, 2);
      } catch {
        // Not JSON after all: it may still be pairs, or keys with values.
      }
    }
    // A form may be sent with line breaks between pairs (text/plain forms, RFC 7578's ancestors).
    const paired = !body.includes('=')
      ? body
      : body
          .split(/(\r?\n)/)
          .map((line) => (line.includes('=') ? redactPairs(line, (name) => this.#isSecret(name.trim()), (value, name) => this.#remember(value, name)) : line))
          .join('');
    return this.#jwts(this.#keyedValues(paired));
  }

  /** Text with the JWTs in it replaced, each remembered: a bearer token is a secret under any name. */
  #jwts(text: string): string {
    return replaceJwts(text, (token) => this.#remember(token, 'jwt'));
  }

  /** `key: value`, `"key": "value"`, `key=value` in free text, with a secret-named key: the value replaced. */
  #keyedValues(text: string): string {
    return text.replace(KEYED_VALUE, (all: string, quote: string, key: string, separator: string, value: string) => {
      if (!this.#isSecret(key)) return all;
      const open = value[0] === '"' || value[0] === "'" ? value[0] : '';
      const closed = open !== '' && value.length > 1 && value.endsWith(open);
      const inner = closed ? value.slice(1, -1) : value.slice(open.length);
      if (inner !== '') this.#remember(inner, key.toLowerCase());
      return `${quote}${key}${quote}${separator}${open}${REDACTED}${closed ? open : ''}`;
    });
  }

  /**
   * Learns the secrets a request carries (credential headers, secret-named query and body fields)
   * without keeping the redacted copies: a collector that shows other data (queries, events,
   * outgoing calls) calls it first, so that `scrub` finds those secrets wherever they recur.
   */
  learnRequest(request: { readonly headers: Readonly<Record<string, unknown>>; readonly url: string; readonly query: unknown; readonly body?: unknown }): void {
    // Several collectors share one Redaction per profile and each asks: the request is learnt once.
    if (this.#learnt.has(request)) return;
    this.#learnt.add(request);
    this.headers(request.headers);
    this.url(request.url);
    this.fields(request.query);
    // A body cut on the request thread (bytes) was redacted there, its secrets sent beside it.
    if (request.body !== null && typeof request.body === 'object' && !(request.body instanceof Uint8Array)) this.fields(request.body);
  }

  /** Deep copy with every remembered secret replaced inside strings and keys. */
  scrub<T>(value: T, depth = 0): T {
    if (this.#seen.size === 0) return value;
    if (typeof value === 'string') return this.#scrubString(value) as T;
    if (value === null || typeof value !== 'object') return value;
    if (depth > MAX_SCRUB_DEPTH) return REDACTED as T;
    if (Array.isArray(value)) return value.map((v) => this.scrub(v, depth + 1)) as T;
    const out: Record<string, unknown> = {};
    // A key is replaced only when it is a secret whole (a map keyed by tokens): a secret found
    // inside a key ("header" inside "headers") would rename the field, and the page reading the
    // profile would find its data gone.
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[this.#seen.has(k) ? REDACTED : k] = this.scrub(v, depth + 1);
    return out as T;
  }

  #scrubString(text: string): string {
    let out = text;
    for (const secret of this.#seen) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    return out;
  }

  #remember(value: unknown, key: string, inside = false): void {
    if (Array.isArray(value)) return value.forEach((v) => this.#remember(v, key, inside));
    if (value === null || typeof value === 'object') {
      // A secret-named object (e.g. "credentials": {...}) is redacted whole where it stands, and
      // its leaves are hunted elsewhere too, but not those that are words: a secret-named object
      // is as often a description ("password": {"type": "string", "format": "password"} in an
      // OpenAPI document) as a credential, and scrubbing "string" or "header" from every text
      // and key of the profile destroyed it. A credential has a digit or a sign in it.
      if (value) for (const v of Object.values(value)) this.#remember(v, key, true);
      return;
    }
    const text = String(value);
    if (inside && WORD.test(text)) return;
    const forms = new Set([text]);
    if (key === 'authorization' || key === 'proxy-authorization') forms.add(text.replace(/^\S+\s+/, ''));
    // The API-key authenticator looks its key up by the key's hash (security/api-key-hash.ts): the
    // lookup's parameter, unsalted, is as good as the key for a weak one and names the account.
    if (key === 'x-api-key') forms.add(apiKeyHash(text));
    // A JWT's signature alone is unique to it, and a parser may quote it alone ("/books/<jwt>"
    // read as the format extension "<signature>"): it is scrubbed wherever it recurs.
    if (key === 'jwt') {
      let token = text;
      try {
        token = decodeURIComponent(text);
      } catch {
        // As it came.
      }
      const signature = token.slice(token.lastIndexOf('.') + 1);
      if (signature.length >= 16) forms.add(signature);
    }
    // Cookie: every pair's value. Set-Cookie: only its first pair's (RFC 6265 §4.1); the attributes
    // after it (Path=/, HttpOnly, SameSite=Lax) are no secret, and scrubbing them everywhere hid
    // those words from every panel.
    if (key === 'cookie' || key === 'set-cookie') {
      const pairs = text.split(/;\s*/);
      for (const c of key === 'set-cookie' ? pairs.slice(0, 1) : pairs) if (c.includes('=')) forms.add(c.slice(c.indexOf('=') + 1));
      if (key === 'set-cookie') forms.delete(text);
    }
    for (const form of [...forms]) {
      try {
        forms.add(decodeURIComponent(form.replaceAll('+', ' ')));
      } catch {
        // Not percent-encoded.
      }
      forms.add(encodeURIComponent(form));
      forms.add(encodeURIComponent(form).replaceAll('%20', '+'));
    }
    for (const form of forms) if (form.length >= MIN_SCRUB_LENGTH && form !== REDACTED) this.#seen.add(form);
  }
}

const patterns = new WeakMap<readonly string[], readonly [RegExp, RegExp]>();
/** The "a key holds a fragment" pattern (not global): test it on a lower-cased key. */
export function secretKeyPattern(keys: readonly string[]): RegExp {
  return keyPatterns(keys)[0];
}

/**
 * For free text: an optionally quoted key, a `:` or `=`, and its value (a quoted string, possibly
 * cut short, or a bare word); whether the key is secret is asked of each match. A key starts only
 * where no key character precedes it, so a run of key characters is tried from its start alone:
 * the scan stays linear (a pattern with the fragments inside `[\w.-]*…[\w.-]*` took 1.8 s on a
 * 32 KB run of letters, quadratic, and a body that long is redacted on the request thread). A
 * value already "[redacted]" (a form pair) is left.
 */
const KEYED_VALUE = /(?<![\w.-])(["']?)([\w.-]+)\1(\s*[:=]\s*)(?!\[redacted\])("(?:[^"\\\n]|\\.)*"?|'[^'\n]*'?|[^\s,;&}\]]+)/g;

const MAX_VERDICTS = 4096;
const verdictCache = new WeakMap<RegExp, Map<string, boolean>>();

function verdictsOf(pattern: RegExp): Map<string, boolean> {
  let verdicts = verdictCache.get(pattern);
  if (!verdicts) verdictCache.set(pattern, (verdicts = new Map()));
  return verdicts;
}

/**
 * RegExps for "contains any of the key fragments" and "a JSON key contains one", compiled once per
 * key list (the configuration's list is the same array for every request). They are matched
 * against lower-cased text: measured three times faster than the `i` flag over a 7 kB body.
 */
function keyPatterns(keys: readonly string[]): readonly [RegExp, RegExp] {
  let found = patterns.get(keys);
  if (!found) {
    const alternatives = keys.filter((k) => k !== '').map((k) => k.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    // No fragment at all: nothing is secret by name (the credential headers still are).
    const any = alternatives.join('|');
    found = alternatives.length > 0 ? [new RegExp(any), new RegExp(`(?:${any})(?:[^"\\\\]|\\\\.)*"\\s*:`)] : [/(?!)/, /(?!)/];
    patterns.set(keys, found);
  }
  return found;
}
