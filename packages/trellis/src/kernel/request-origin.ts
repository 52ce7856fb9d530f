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
 * The origin of a request whose Host was validated. A request without Host (HTTP/1.0, which may
 * omit it; HTTP/1.1 without one never gets here, RFC 9112 §3.2) is named by the address it reached.
 */
export function validatedOrigin(request: FastifyRequest, host: string | undefined): string {
  return `${request.protocol}://${host || serverAuthority(request)}`;
}

/** `address:port` of the socket's local end: the server's own authority (IPv6 in brackets, RFC 3986 §3.2.2). */
function serverAuthority(request: FastifyRequest): string {
  const socket = request.socket;
  const address = toIpv4Form(socket?.localAddress ?? '127.0.0.1');
  const port = socket?.localPort;
  const hostPart = address.includes(':') ? `[${address}]` : address;
  return port ? `${hostPart}:${port}` : hostPart;
}
