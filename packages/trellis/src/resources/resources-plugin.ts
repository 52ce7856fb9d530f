import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { TrellisConfig } from '../app/config.ts';

/** Declared resources → routes, formats, pipeline. Placeholder: built by the resource issue. */
export const resourcesPlugin = fp(
  async (_app: FastifyInstance, _opts: { config: TrellisConfig; name: string; resources: readonly unknown[]; database: unknown }) => {},
  { name: 'trellis-resources' },
);
