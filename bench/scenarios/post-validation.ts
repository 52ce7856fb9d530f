import { resourceScenario } from './resource-scenario.ts';

/**
 * A signed-in user posts an invalid review: firewall (JWT + user lookup), operation security,
 * parse, deserialize, post-denormalize check, validation → 422. Nothing is written, so the
 * database stays the same whatever the rate.
 */
export const postValidation = resourceScenario({
  name: 'post-validation',
  title: 'POST /reviews as alice (Bearer JWT), rating 9 → 422 with one violation',
  request: (f) => ({
    method: 'POST',
    path: '/reviews',
    headers: { accept: 'application/ld+json', 'content-type': 'application/ld+json', authorization: `Bearer ${f.tokens.alice}` },
    body: JSON.stringify({ rating: 9, body: 'Great read.', author: '/users/2', book: '/books/1' }),
  }),
  expectStatus: 422,
  baseline: true,
});
