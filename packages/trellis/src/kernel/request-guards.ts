import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-error.ts';
import { ForwardedAddressError, forwardedFor, xForwardedFor } from '../http/forwarded.ts';
import { toIpv4Form } from '../http/ip-matcher.ts';
import { absoluteFormHost, requestHost, validatedOrigin } from './request-origin.ts';
import { ellipsis } from '../logging/cut-string.ts';

export interface GuardOptions {
  readonly trustedHosts: readonly RegExp[];
  readonly isTrustedProxy: (address: string) => boolean;
}

/**
 * A host is valid when it is a name of letters, digits, "-" and "_" in dot-separated labels, none
 * of them empty (a final dot, the absolute form, allowed), or a bracketed IPv6 literal, with an
 * optional port of digits (RFC 9110 §7.2, RFC 3986 §3.2.2 and §3.2.3). Symfony's
 * Request::getHost() checks the characters only, so `localhost:abc`, `a..b` and port 99999 passed
 * and were built into absolute links: here a port is at most 65535, and an empty one (which
 * RFC 3986 says producers should omit) is refused too.
 */
const HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

export function isValidHost(host: string): boolean {
  const match = HOST.exec(host);
  return match !== null && (match[1] === undefined || Number(match[1]) <= 65_535);
}

/** Whether TRUSTED_HOSTS lists the name of `host` (its port left out). */
export function isTrustedHost(trustedHosts: readonly RegExp[], host: string): boolean {
  const name = hostnameOf(host);
  return trustedHosts.some((re) => {
    re.lastIndex = 0;
    return re.test(name);
  });
}

export function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  const colon = host.lastIndexOf(':');
  return (colon >= 0 ? host.slice(0, colon) : host).toLowerCase();
}

/** A header sent several times reads as one comma-separated list (RFC 9110 §5.3). */
function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * The client address: the socket peer, or, when the peer is a trusted proxy, the nearest address
 * in the forwarding chain that is not itself a trusted proxy (RFC 7239 §5.2).
 */
function resolveClientIp(request: FastifyRequest, options: GuardOptions): string {
  const peer = request.socket.remoteAddress ?? '';
  if (!options.isTrustedProxy(peer)) return toIpv4Form(peer);
  const forwarded = joined(request.headers.forwarded);
  const xff = joined(request.headers['x-forwarded-for']);
  let fromForwarded: string[] = [];
  let fromXff: string[] = [];
  try {
    // A trusted proxy's headers decide the client address, so one that names something other
    // than an address (a script, a host name, an empty list) is a bad request, never a guess.
    if (forwarded !== undefined) fromForwarded = forwardedFor(forwarded);
    if (xff !== undefined) fromXff = xForwardedFor(xff);
  } catch (error) {
    if (!(error instanceof ForwardedAddressError)) throw error;
    throw HttpError.of('invalid_forwarded_address', { header: error.header, value: error.value.slice(0, 100) });
  }
  if (fromForwarded.length > 0 && fromXff.length > 0 && fromForwarded.map(toIpv4Form).join(',') !== fromXff.map(toIpv4Form).join(',')) {
    throw HttpError.of('conflicting_forwarded_headers');
  }
  const chain = fromForwarded.length > 0 ? fromForwarded : fromXff;
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!options.isTrustedProxy(chain[i]!)) return toIpv4Form(chain[i]!);
  }
  return toIpv4Form(chain[0] ?? peer);
}

/**
 * The guard phase: rejects requests whose Host cannot be trusted and works out the client address.
 * Throws 400 HttpErrors (request exceptions), before routing.
 */
export function guardRequest(request: FastifyRequest, options: GuardOptions): string {
  const target = request.raw.url ?? '';
  // RFC 9112 §3.2: origin-form ("/books"), absolute-form ("http://a.test/books"), or "*" for a
  // server-wide OPTIONS. Node passes any other token through, and the router read "*books" as "/".
  if (!target.startsWith('/') && !(target === '*' && request.method === 'OPTIONS') && absoluteFormHost(target) === undefined) {
    throw HttpError.of('invalid_request_target', { target: ellipsis(target, 64) });
  }
  // RFC 9112 §3.2: a request with more than one Host field is a 400. Node keeps the first and
  // drops the rest, so they are counted in the raw list (HTTP/2 has :authority, not Host).
  if (request.raw.httpVersionMajor === 1 && hostFieldCount(request.raw.rawHeaders) > 1) throw HttpError.of('duplicate_host');
  const host = requestHost(request);
  // RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1
  // request message that lacks a Host header field" (Node's own check is off: create-app.ts).
  // The field itself: an absolute-form target names a host too, but does not excuse the field.
  if (request.raw.httpVersion === '1.1' && !request.headers.host) throw HttpError.of('missing_host');
  if (host && !isValidHost(host)) throw HttpError.of('invalid_host', { host });
  if (options.trustedHosts.length > 0) {
    if (!isTrustedHost(options.trustedHosts, host ?? '')) throw HttpError.of('untrusted_host', { host: hostnameOf(host ?? '') });
  }
  const clientIp = resolveClientIp(request, options);
  request.trellisOrigin = validatedOrigin(request, host);
  return clientIp;
}

function hostFieldCount(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}
