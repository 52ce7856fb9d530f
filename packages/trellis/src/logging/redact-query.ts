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
 * line or a stored profile may show. The fragment, never sent by clients, is left alone.
 */
export function redactQuery(url: string, isSecret: (name: string) => boolean, onSecret?: (value: string, name: string) => void): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  const query = url.slice(q + 1, end);
  const redacted = redactPairs(query, isSecret, onSecret);
  return redacted === query ? url : `${url.slice(0, q + 1)}${redacted}${url.slice(end)}`;
}
