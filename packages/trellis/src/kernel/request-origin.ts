import type { FastifyRequest } from 'fastify';
import { toIpv4Form } from '../http/ip-matcher.ts';

/**
 * The origin (`scheme://host[:port]`) absolute URLs of a request are built on: Link headers, the
 * profiler's X-Debug-Token-Link, the Hydra vocabulary. Set by the guard phase once the Host has
 * passed validation (and TRUSTED_HOSTS); until then, and for a request whose Host was rejected,
 * it is empty, so such URLs are relative (`</docs.jsonld>`, `/_profiler/abc123`) and nothing the
 * client sent is reflected into a header (as Symfony does for a rejected host).
 */
export function originOf(request: FastifyRequest): string {
  return request.trellisOrigin;
}

/**
 * `http://` or `https://` at the start of a request target, any case: its absolute form. Its
 * host is what follows userinfo, which is never the host (and never echoed in a message).
 */
const ABSOLUTE_FORM = /^https?:\/\/(?:[^/?#@]*@)?([^/?#]*)/i;

/**
 * The host a request names: RFC 9112 §3.2.2, a request-target in absolute form (`GET
 * http://a.test/x`, what clients send to a proxy) names its own, and an origin server MUST ignore
 * the Host field then. Otherwise Fastify's host (the Host field, or X-Forwarded-Host from a
 * trusted proxy). Links, the Host checks and the profiler's rebinding guard all judge this one.
 */
export function requestHost(request: FastifyRequest): string | undefined {
  return absoluteFormHost(request.raw.url ?? '') ?? request.host;
}

/**
 * The host the client itself sent: the request-target's in absolute form, else the Host field
 * (HTTP/2's :authority), never X-Forwarded-Host, which `requestHost` prefers from a trusted proxy.
 */
export function sentHost(request: FastifyRequest): string | undefined {
  const headers = request.headers as Record<string, string | string[] | undefined>;
  const field = headers.host ?? headers[':authority'];
  return absoluteFormHost(request.raw.url ?? '') ?? (typeof field === 'string' ? field : undefined);
}

/** The host of a request-target in absolute form (`http://a.test/x` names `a.test`), else undefined. */
export function absoluteFormHost(target: string): string | undefined {
  return ABSOLUTE_FORM.exec(target)?.[1];
}

/**
 * The origin of a request whose Host was validated. A request without Host (HTTP/1.0, which may
 * omit it; HTTP/1.1 without one never gets here, RFC 9112 §3.2) is named by the address it reached.
 */
export function validatedOrigin(request: FastifyRequest, host: string | undefined): string {
  return `${requestScheme(request)}://${host || serverAuthority(request)}`;
}

/**
 * The request's scheme: over HTTP/2 its `:scheme` pseudo-header (RFC 9113 §8.3.1; Fastify's
 * `protocol` reads the socket, which an HTTP/2 stream does not expose as encrypted); over HTTP/1.1
 * Fastify's, which believes X-Forwarded-Proto from trusted proxies only.
 */
export function requestScheme(request: FastifyRequest): string {
  if (request.raw.httpVersionMajor === 2) {
    const scheme = (request.raw as { scheme?: string }).scheme ?? request.headers[':scheme'];
    if (scheme === 'https' || scheme === 'http') {
      // Behind a trusted proxy the forwarded protocol is still the client's.
      return request.protocol === 'https' ? 'https' : scheme;
    }
  }
  return request.protocol;
}

/** The client's address as the socket gives it, over HTTP/1.1 and HTTP/2 alike. */
export function peerAddress(request: FastifyRequest): string {
  const raw = request.raw as { socket?: { remoteAddress?: string }; stream?: { session?: { socket?: { remoteAddress?: string } } } };
  return toIpv4Form(raw.socket?.remoteAddress ?? raw.stream?.session?.socket?.remoteAddress ?? '');
}

/** `address:port` of the socket's local end: the server's own authority (IPv6 in brackets, RFC 3986 §3.2.2). */
function serverAuthority(request: FastifyRequest): string {
  const socket = request.socket;
  const address = toIpv4Form(socket?.localAddress ?? '127.0.0.1');
  const port = socket?.localPort;
  const hostPart = address.includes(':') ? `[${address}]` : address;
  return port ? `${hostPart}:${port}` : hostPart;
}
