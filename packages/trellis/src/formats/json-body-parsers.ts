import type { FastifyInstance } from 'fastify';
import { jsonStreamParser } from '../kernel/body-parsers.ts';

/** The JSON-based request media types the resource formats read (application/json is the kernel's). */
export const JSON_BODY_MEDIA_TYPES = ['application/ld+json', 'application/merge-patch+json', 'application/vnd.api+json', 'application/hal+json'] as const;

/**
 * Registers a parser for each JSON-based media type, with the kernel's rules: prototype
 * poisoning keys removed, an empty body and a syntax error are 400s with exact messages; for
 * resource operations the body is read after access control (kernel/body-parsers.ts).
 */
export function registerJsonBodyParsers(app: FastifyInstance): void {
  for (const type of JSON_BODY_MEDIA_TYPES) {
    if (app.hasContentTypeParser(type)) continue;
    app.addContentTypeParser(type, jsonStreamParser);
    app.trellis.contentTypes.add(type);
  }
}
