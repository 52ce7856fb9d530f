// What the `trellis` command reads of the bookshop (package.json: "trellis": { "app": "src/app.ts" }):
// `npx trellis routes`, `npx trellis migrate:status`, `npx trellis serve` from this folder.
import type { Database } from 'trellis';
import { seedIfEmpty } from './seed.ts';

export { migrations } from '../migrations/index.ts';
export { resources } from './resources/index.ts';
export { docs } from './docs.ts';
export const name = 'Bookshop';

export async function seed(db: Database): Promise<void> {
  await seedIfEmpty(db);
}
