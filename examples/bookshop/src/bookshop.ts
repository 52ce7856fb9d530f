import { createApp, migrate, type CreateAppOptions, type Database } from 'trellis';
import type { FastifyInstance } from 'fastify';
import { migrations } from '../migrations/index.ts';
import { docs } from './docs.ts';
import { resources } from './resources/index.ts';
import { seedIfEmpty, type SeedOptions } from './seed.ts';

/**
 * The bookshop on a database: migrates it, seeds it when empty, and builds the app. The caller
 * owns the database and closes it (tests and the bench open their own).
 */
export async function createBookshop(options: Omit<CreateAppOptions, 'resources' | 'database'> & { database: Database; seed?: SeedOptions | false }): Promise<FastifyInstance> {
  await migrate(options.database, migrations);
  if (options.seed !== false) await seedIfEmpty(options.database, options.seed ?? {});
  const { seed: _seed, ...appOptions } = options;
  return createApp({ name: 'Bookshop', docs, ...appOptions, resources });
}
