import type { FastifyRequest } from 'fastify';
import type { ErrorView } from './error-view.ts';

/**
 * Renders an error in one media type. The kernel negotiates among the registered error formats
 * with the request's Accept header (falling back to the first one, since an error is never turned
 * into a 406). Formats such as JSON-LD register their own flavour with `app.trellis.errorFormats`.
 *
 * Contract: `render` is synchronous-safe, never throws for any ErrorView, and returns the complete
 * body for `mediaType` (which is one of `mediaTypes`).
 */
export interface ErrorFormat {
  readonly name: string;
  readonly mediaTypes: readonly string[];
  /** Headers sent with every error in this format (an HTML page's Content-Security-Policy). */
  readonly headers?: Readonly<Record<string, string>>;
  render(view: ErrorView, mediaType: string, request: FastifyRequest): string;
}
