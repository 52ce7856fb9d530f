/**
 * The bookshop (examples/bookshop) on an in-memory SQLite database, for the docs tests: its
 * resources cover every declaration the docs must render (relations, nullable and read-only
 * fields, custom security, filters, PUT opt-in, a resource without a collection).
 */
import type { FastifyInstance } from 'fastify';
import { openDatabase } from '../../src/data/database.ts';
import type { TrellisConfig } from '../../src/app/config.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';

export async function bookshopApp(config: TrellisConfig = testConfig({ PROFILER: '0' })): Promise<FastifyInstance> {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config, database, tls: null, seed: { passwordCost: 1024 } });
  app.addHook('onClose', () => database.destroy());
  return app;
}

/** Every method + path the app routes, read from Fastify's route tree (HEAD excluded: it follows GET). */
export function appRoutes(app: FastifyInstance): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)(?:[├└]── )(.+?) \(([A-Z, ]+)\)$/u.exec(line) ?? /^([│ ]*)(?:[├└]── )(.+)$/u.exec(line);
    if (!m) continue;
    const depth = [...m[1]!].length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    if (m[3]) for (const method of m[3].split(', ')) if (method !== 'HEAD') out.push({ method, path: stack.join('') });
  }
  return out;
}
