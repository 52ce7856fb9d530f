import { createApp, migrate, migrationsIn, type CreateAppOptions, type Database } from 'trellis';
import { Task } from './resources/task.ts';
import { seedIfEmpty } from './seed.ts';

// What the `trellis` command reads (package.json: "trellis": { "app": "src/app.ts" }): `trellis
// serve` (npm start) applies the files in migrations/, runs the seed and serves these resources.
export const name = '{{title}}';
export const resources = [Task];
export const seed = seedIfEmpty;

/**
 * The app on a database, migrated and seeded, as `trellis serve` builds it: the tests use this.
 * Its type is createApp's, so this project needs no dependency of its own on `fastify`.
 */
export async function buildApp(options: Omit<CreateAppOptions, 'resources' | 'database'> & { database: Database }): ReturnType<typeof createApp> {
  await migrate(options.database, await migrationsIn(new URL('../migrations/', import.meta.url)));
  await seedIfEmpty(options.database);
  return createApp({ name, ...options, resources });
}
