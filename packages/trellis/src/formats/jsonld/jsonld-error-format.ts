import type { ErrorFormat } from '../../errors/error-format.ts';
import { problemBody } from '../../errors/problem-body.ts';

/**
 * Errors for JSON-LD clients: the problem document (RFC 9457) as a `hydra:Error`, with
 * `hydra:title` and `hydra:description` beside the RFC's `title` and `detail`.
 */
export const jsonldErrorFormat: ErrorFormat = {
  name: 'jsonld',
  mediaTypes: ['application/ld+json'],
  render: (view) =>
    JSON.stringify({
      '@context': '/contexts/Error',
      '@type': 'hydra:Error',
      'hydra:title': view.title,
      'hydra:description': view.message,
      ...problemBody(view),
    }),
};
