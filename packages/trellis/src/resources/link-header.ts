import type { FastifyRequest } from 'fastify';
import type { PageLinks } from './pagination.ts';
import { originOf } from '../kernel/request-origin.ts';

export const API_DOCUMENTATION_REL = 'http://www.w3.org/ns/hydra/core#apiDocumentation';

export { originOf };

/** The Hydra API documentation link every API response carries (RFC 8288 §3, absolute target). */
export function apiDocumentationLink(request: FastifyRequest): string {
  return `<${originOf(request)}/docs.jsonld>; rel="${API_DOCUMENTATION_REL}"`;
}

/** RFC 8288 pagination links (first, last, prev, next) for formats without links in the body. */
export function paginationLinks(request: FastifyRequest, links: PageLinks): string {
  const origin = originOf(request);
  const out = [`<${origin}${links.first}>; rel="first"`];
  if (links.last !== null) out.push(`<${origin}${links.last}>; rel="last"`);
  if (links.previous !== null) out.push(`<${origin}${links.previous}>; rel="prev"`);
  if (links.next !== null) out.push(`<${origin}${links.next}>; rel="next"`);
  return out.join(', ');
}
