import { resourceScenario } from './resource-scenario.ts';

/** GET item with a bearer token: what authentication adds to a read (compare with get-item). */
export const bearerItem = resourceScenario({
  name: 'bearer-item',
  title: 'GET /books/1 with Authorization: Bearer <admin JWT> → 200 JSON-LD',
  request: (f) => ({ method: 'GET', path: '/books/1', headers: { accept: 'application/ld+json', authorization: `Bearer ${f.tokens.admin}` } }),
  expectStatus: 200,
  baseline: true,
  // The debug configuration's cost is measured by get-item; here only authentication is added.
  debug: false,
});
