import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** The API entrypoint at `/`: a small document naming the service. */
export const entrypointPlugin = fp(
  async (app: FastifyInstance, opts: { name: string }) => {
    app.get('/', async () => ({ name: opts.name }));
  },
  { name: 'trellis-entrypoint' },
);
