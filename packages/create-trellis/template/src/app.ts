import { createApp, migrate, type CreateAppOptions, type Database } from 'trellis';
import type { FastifyInstance } from 'fastify';
import { migrations } from '../migrations/index.ts';
import { Task } from './resources/task.ts';
import { seedIfEmpty } from './seed.ts';

/** The API on a database: migrated, seeded when empty. `npm start` and the tests both build it here. */
export async function buildApp(options: Omit<CreateAppOptions, 'resources' | 'database'> & { database: Database }): Promise<FastifyInstance> {
  await migrate(options.database, migrations);
  await seedIfEmpty(options.database);
  return createApp({ name: '{{title}}', ...options, resources: [Task] });
}
