import { resourceScenario } from './resource-scenario.ts';

export const getItem = resourceScenario({
  name: 'get-item',
  title: 'GET /books/1 → 200 JSON-LD (one row)',
  request: () => ({ method: 'GET', path: '/books/1', headers: { accept: 'application/ld+json' } }),
  expectStatus: 200,
  baseline: true,
  redis: true,
});
