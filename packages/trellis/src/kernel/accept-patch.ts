import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HttpError } from './http-error.ts';

/**
 * RFC 5789 §2.2: a PATCH whose patch document is of a media type the resource does not read is a
 * 415 that SHOULD carry Accept-Patch (§3.1), the patch formats it does read, so a client can
 * retry with one. Only the refusals of a media type: a content coding is answered with
 * Accept-Encoding instead (RFC 9110 §15.5.16).
 */
export function addAcceptPatch(error: HttpError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.status !== 415 || error.code === 'unsupported_content_encoding' || request.method !== 'PATCH') return;
  const types = request.routeOptions?.config?.inputMediaTypes;
  if (types !== undefined && types.length > 0) reply.header('accept-patch', types.join(', '));
}
