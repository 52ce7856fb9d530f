import { replaceEncodedJwts, replaceJwts } from './jwt-like.ts';
import { REDACTED } from './redact-secrets.ts';

/**
 * `name=value&…` pairs (a query string, an `application/x-www-form-urlencoded` body) with the
 * value of every pair whose name is secret replaced by "[redacted]". Names are compared decoded
 * (`%61pi_key` is `api_key`, `+` is a space), as the query parser will read them; a malformed
 * escape is compared as sent. `onSecret` hears each value removed, as sent (still encoded).
 */
export function redactPairs(pairs: string, isSecret: (name: string) => boolean, onSecret?: (value: string, name: string) => void): string {
  let changed = false;
  const out = pairs.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0 || eq === pair.length - 1) return pair;
    let name = pair.slice(0, eq);
    try {
      name = decodeURIComponent(name.replaceAll('+', ' '));
    } catch {
      // A malformed escape stays as sent; it is matched as is.
    }
    if (!isSecret(name)) return pair;
    onSecret?.(pair.slice(eq + 1), name);
    changed = true;
    return `${pair.slice(0, eq)}=${REDACTED}`;
  });
  return changed ? out.join('&') : pairs;
}

/**
 * A URL (path and query, or absolute) with secret-named query parameters redacted: what a log
 * line or a stored profile may show. Everything from the first `?` or `#` on is read as pairs,
 * each `#`-separated part on its own: a client may send a raw `#` in the request target (browsers
 * never do), and the query parser then reads the pairs after it as parameters; and a fragment
 * may hold pairs too (`#access_token=…`, OAuth's implicit flow). The userinfo of an absolute URL
 * is redacted too.
 */
export function redactQuery(url: string, isSecret: (name: string) => boolean, onSecret?: (value: string, name: string) => void): string {
  const removed: string[] = [];
  const heard = (value: string, name: string) => {
    removed.push(value);
    onSecret?.(value, name);
  };
  let out = redactPairsAfterQuery(redactUserinfo(url, heard), isSecret, heard);
  // Once found, wherever else it stands in the same URL: `?password=S3cr3t&pwd=S3cr3t` logged the
  // second. Values shorter than four characters are too likely to be ordinary words of the path.
  for (const value of removed) if (value.length >= 4 && out.includes(value)) out = out.replaceAll(value, REDACTED);
  // A JWT is a credential under any name, percent-encoded or not (jwt-like.ts).
  return replaceEncodedJwts(replaceJwts(out, (token) => onSecret?.(token, 'jwt')), (run) => onSecret?.(run, 'jwt'));
}

/** `scheme://userinfo@` at the start of an absolute URL (an absolute-form target, a Referer). */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i;

/**
 * RFC 3986 §3.2.1: a password in userinfo is a credential in clear (and a token is often sent as
 * the user name, `https://<token>@host`): `user:password@` keeps the user, a lone name is
 * replaced whole.
 */
function redactUserinfo(url: string, onSecret?: (value: string, name: string) => void): string {
  const m = USERINFO.exec(url);
  if (!m || m[2] === '') return url;
  const info = m[2]!;
  const colon = info.indexOf(':');
  const secret = colon < 0 ? info : info.slice(colon + 1);
  if (secret === '') return url;
  onSecret?.(secret, 'userinfo');
  return `${m[1]}${colon < 0 ? REDACTED : `${info.slice(0, colon)}:${REDACTED}`}@${url.slice(m[0].length)}`;
}

function redactPairsAfterQuery(url: string, isSecret: (name: string) => boolean, onSecret?: (value: string, name: string) => void): string {
  const q = url.indexOf('?');
  const h = url.indexOf('#');
  const start = q < 0 ? h : h < 0 ? q : Math.min(q, h);
  if (start < 0) return url;
  const tail = url.slice(start + 1);
  const redacted = tail
    .split('#')
    .map((part) => redactPairs(part, isSecret, onSecret))
    .join('#');
  return redacted === tail ? url : `${url.slice(0, start + 1)}${redacted}`;
}
