/**
 * The baseline: what a competent engineer writes by hand with plain Fastify for the same responses,
 * with no framework on top. Logging off (the Trellis servers log to /dev/null at LOG_LEVEL=warn).
 * Resource routes (Fastify + Kysely over the bookshop's SQLite file) are added when DATABASE_URL is set.
 */
import Fastify from 'fastify';
import { announceUrl } from '../lib/server-process.ts';

const app = Fastify({ logger: false, exposeHeadRoutes: true });

app.get('/hello', async () => ({ hello: 'world' }));

// Same problem details document (RFC 9457) as Trellis sends for an unmatched route in production.
app.setNotFoundHandler((request, reply) => {
  const q = request.url.indexOf('?');
  const path = q < 0 ? request.url : request.url.slice(0, q);
  reply
    .code(404)
    .header('vary', 'Accept')
    .type('application/problem+json; charset=utf-8')
    .send(
      JSON.stringify({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: `No route found for "${request.method} ${path}"`,
        code: 'route_not_found',
      }),
    );
});

if (process.env.DATABASE_URL) {
  const { baselineBookRoutes } = await import('./baseline-book-routes.ts');
  await app.register(baselineBookRoutes, { databaseUrl: process.env.DATABASE_URL, jwtSecret: process.env.JWT_SECRET ?? '' });
}

announceUrl(await app.listen({ host: '127.0.0.1', port: 0 }));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
