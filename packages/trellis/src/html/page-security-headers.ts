import { createHash } from 'node:crypto';

/**
 * Response headers for an HTML page the framework renders (profiler pages, error pages), whose
 * only inline content is known stylesheets: they are allowed by hash (CSP Level 2 §4.2.5), so the
 * policy needs neither a per-response nonce nor 'unsafe-inline', and no script runs at all.
 *
 * - `externalScripts`: the SRI hashes (`sha256-…`) of the script files the pages load with
 *   `integrity`; no inline script or handler is ever allowed.
 * - `default-src 'none'`: nothing loads unless listed; `img-src data:` for the inline favicon;
 *   `form-action 'self'` for the profiler's search form.
 * - `frame-ancestors 'none'` and `X-Frame-Options: DENY` (for browsers without CSP 2): a page that
 *   shows request data is never framed by another site (clickjacking).
 * - `Referrer-Policy: no-referrer`: profiler URLs name profiles; a link followed from a page
 *   must not hand them to another origin.
 * - `X-Content-Type-Options: nosniff`: the kernel sends it on every response too.
 */
export function pageSecurityHeaders(inlineStyles: readonly string[], externalScripts: readonly string[] = []): Readonly<Record<string, string>> {
  const hashes = inlineStyles.map((css) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`);
  const policy = [
    "default-src 'none'",
    `style-src ${hashes.length > 0 ? hashes.join(' ') : "'none'"}`,
    // CSP Level 3 (a hash-source matches an external script by its integrity metadata): a file loaded with an
    // `integrity` whose hash is listed here runs, and no other script does, same-origin or not.
    ...(externalScripts.length > 0 ? [`script-src ${externalScripts.map((sri) => `'${sri}'`).join(' ')}`] : []),
    'img-src data:',
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return Object.freeze({
    'content-security-policy': policy,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
}
