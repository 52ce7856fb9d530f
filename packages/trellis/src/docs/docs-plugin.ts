import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** OpenAPI, Swagger UI, Hydra docs. Placeholder: built by the docs issue. */
export const docsPlugin = fp(async (_app: FastifyInstance, _opts: { name: string; resources: readonly unknown[] }) => {}, { name: 'trellis-docs' });
