import type { FastifyInstance } from 'fastify';

/**
 * GET /books/:id and GET /books by hand with Fastify + Kysely over the bookshop's database, sending
 * the same JSON-LD bytes as the bookshop. Written once the resource layer lands.
 */
export async function baselineBookRoutes(_app: FastifyInstance, _opts: { databaseUrl: string }): Promise<void> {
  throw new Error('the baseline book routes are not written yet: the resource layer has not landed');
}
