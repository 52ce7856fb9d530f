import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.ts';

/** The path as sent, on a request whose percent-encoding the router could not decode. */
const MALFORMED = Symbol('trellis.malformedUrl');
type Marked = IncomingMessage & { [MALFORMED]?: string };

/**
 * Fastify answers a path it cannot decode (`/books/%zz`) from a bare context: no hook runs, so
 * the 400 had no X-Debug-Token, no profile, no security headers, no Link. Instead the request is
 * routed again with every `%` of its path escaped (so it decodes), marked; the guard phase puts
 * the URL back and answers the 400 (`malformedUrlError`), inside the whole lifecycle.
 * Returns false when the request was already re-routed once (it is then answered as it is).
 */
export function rerouteMalformedUrl(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): boolean {
  const raw = request.raw as Marked;
  if (raw[MALFORMED] !== undefined || raw.url === undefined) return false;
  const original = raw.url;
  const q = original.indexOf('?');
  const path = q < 0 ? original : original.slice(0, q);
  raw[MALFORMED] = original;
  raw.url = path.replaceAll('%', '%25') + (q < 0 ? '' : original.slice(q));
  app.routing(raw, reply.raw as ServerResponse);
  return true;
}

/** For a re-routed request: puts its URL back and gives the 400 it gets (guard phase). */
export function malformedUrlError(request: FastifyRequest): HttpError | null {
  const raw = request.raw as Marked;
  const original = raw[MALFORMED];
  if (original === undefined) return null;
  raw.url = original;
  const q = original.indexOf('?');
  return HttpError.of('malformed_url', { path: q < 0 ? original : original.slice(0, q) });
}
