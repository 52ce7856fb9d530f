import type { FastifyInstance } from 'fastify';
import { createApp } from '../app/create-app.ts';
import { openDatabase } from '../data/database.ts';
import { declarationsConfig } from './cli-config.ts';
import { appOptionsOf, type ProjectModule } from './project.ts';

export interface DeclaredApp {
  readonly app: FastifyInstance;
  /** Every route: method and URL pattern (HEAD wherever GET is). */
  readonly routes: readonly { method: string; url: string }[];
  close(): Promise<void>;
}

/**
 * The project's app built from its declarations alone, for commands that describe it: an empty
 * in-memory database, no port, no profile store on disk.
 */
export async function declaredApp(mod: ProjectModule, production = false): Promise<DeclaredApp> {
  const database = openDatabase('sqlite::memory:');
  const app = await createApp({ name: 'API', ...appOptionsOf(mod), config: declarationsConfig(production), database, tls: null });
  await app.ready();
  const routes = app.trellis.routes.entries().flatMap(({ path, methods }) => methods.map((method) => ({ method, url: path })));
  return {
    app,
    routes,
    async close() {
      await app.close();
      await database.destroy();
    },
  };
}
