import { resourceScenario } from './resource-scenario.ts';

export const getCollection = resourceScenario({
  name: 'get-collection',
  title: 'GET /books?page=1&title=the → 200 JSON-LD collection (30 of 258 items, a filter, a count)',
  request: () => ({ method: 'GET', path: '/books?page=1&title=the', headers: { accept: 'application/ld+json' } }),
  expectStatus: 200,
  baseline: true,
});
