import type { ErrorFormat } from '../../errors/error-format.ts';
import { problemBody } from '../../errors/problem-body.ts';

/**
 * Errors for JSON-LD clients: the problem document (RFC 9457) as a Hydra `Error`, with the
 * `description` Hydra reads beside the RFC's `detail`. Terms are unprefixed, as in collections
 * (`Collection`, `member`) and as API Platform 4 writes both: `/contexts/Error` maps `Error`,
 * `title` and `description` to hydra:Error, hydra:title and hydra:description.
 */
export const jsonldErrorFormat: ErrorFormat = {
  name: 'jsonld',
  mediaTypes: ['application/ld+json'],
  render: (view) =>
    JSON.stringify({
      '@context': '/contexts/Error',
      '@type': 'Error',
      ...problemBody(view),
      description: view.message,
    }),
};
