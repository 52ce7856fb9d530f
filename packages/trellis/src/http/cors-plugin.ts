import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { TrellisConfig } from '../app/config.ts';

/** CORS (Fetch standard). Placeholder: built by the security and CORS issue. */
export const corsPlugin = fp(async (_app: FastifyInstance, _opts: { config: TrellisConfig }) => {}, { name: 'trellis-cors' });
