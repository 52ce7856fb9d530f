import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { publish } from '../observe/channels.ts';
import { HttpError } from './http-error.ts';
import { DEFAULT_JSON_MAX_DEPTH, DEFAULT_JSON_MAX_MEMBERS, parseJsonBody } from './json-body-parser.ts';
import { readBody, type ReadBodyOptions } from './read-body.ts';
import type { TrellisContext } from './kernel-plugin.ts';

type Done = (error: Error | null, body?: unknown) => void;

/**
 * A route whose body is read by its own handler after access control (resource operations,
 * `config.deferBody`): the parsers hand it the unread stream, so a request refused before its
 * body matters (401, 403, 404) never has it read into memory (lifecycle.md, phase 10).
 */
export function bodyDeferred(request: FastifyRequest): boolean {
  return request.routeOptions.config?.deferBody === true;
}

/** The app's body limit and memory budget, and the request's length and coding. */
export function bodyOptions(request: FastifyRequest): ReadBodyOptions {
  const trellis = request.server.trellis as TrellisContext | undefined;
  return {
    limit: trellis?.config.bodyLimit ?? 1024 * 1024,
    contentLength: request.headers['content-length'],
    contentEncoding: request.headers['content-encoding'],
    budget: trellis?.bodyBudget,
    // The profiler's timeline and Server-Timing show the wait apart from the reading.
    onWait: (waiting) => publish('phase', () => ({ request, phase: waiting ? 'body-wait' : 'parse', at: performance.now() })),
  };
}
const depthOf = (request: FastifyRequest) => request.server.trellis?.config.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH;
const membersOf = (request: FastifyRequest) => request.server.trellis?.config.jsonMaxMembers ?? DEFAULT_JSON_MAX_MEMBERS;

/** The `charset` parameter of a Content-Type (RFC 9110 §8.3.2), lower-cased and unquoted, or null. */
function charsetOf(contentType: string | undefined): string | null {
  const m = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType ?? '');
  return m ? m[2]!.toLowerCase() : null;
}

/**
 * Reads and parses a JSON body: its charset, the size limit, then the depth limit, then the syntax
 * (415, 400s and 413). The `parse` phase is the reading and the decoding: it starts before the
 * first byte is read, and a body read inside the handler (a resource operation's, after access
 * control) hands the time back to the handler once decoded, so that the work after it (the
 * processor's queries, serialisation) is not counted as parsing.
 */
export async function readJsonBody(request: FastifyRequest, stream: Readable): Promise<unknown> {
  const charset = charsetOf(request.headers['content-type']);
  // Read as UTF-8 whatever is declared, a UTF-16 or Latin-1 body would be misread or a puzzling 400.
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') throw HttpError.of('unsupported_charset', { charset: charset.slice(0, 40) });
  publish('phase', () => ({ request, phase: 'parse', at: performance.now() }));
  try {
    const text = await readBody(stream, bodyOptions(request));
    return parseJsonBody(text, depthOf(request), membersOf(request));
  } finally {
    if (bodyDeferred(request)) publish('phase', () => ({ request, phase: 'handler', at: performance.now() }));
  }
}

/** JSON and the JSON-based media types (JSON-LD, merge-patch, JSON:API, HAL). */
export function jsonStreamParser(request: FastifyRequest, payload: Readable, done: Done): void {
  if (bodyDeferred(request)) return done(null, payload);
  readJsonBody(request, payload).then((value) => done(null, value), (error: Error) => done(error));
}

/** text/plain, as a string (Fastify's default, with our limit and errors). */
export function textStreamParser(request: FastifyRequest, payload: Readable, done: Done): void {
  if (bodyDeferred(request)) return done(null, payload);
  readBody(payload, bodyOptions(request)).then((text) => done(null, text), (error: Error) => done(error));
}

/** Any other media type: 415 (RFC 9110 §15.5.16), or, for a deferred route, the handler decides. */
export function otherTypesParser(request: FastifyRequest, payload: Readable, done: Done): void {
  if (bodyDeferred(request)) return done(null, payload);
  done(HttpError.of('unsupported_media_type', { contentType: request.headers['content-type'] ?? '', supported: [...(request.server.trellis?.contentTypes ?? [])].map((t) => `"${t}"`).join(', ') }));
}

/** Replaces Fastify's parsers with these (application/json, text/plain, and every other type). */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', jsonStreamParser);
  app.addContentTypeParser('text/plain', textStreamParser);
  app.addContentTypeParser('*', otherTypesParser);
}
