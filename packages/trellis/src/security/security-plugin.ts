import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { TrellisConfig } from '../app/config.ts';

export interface SecurityOptions {}

/** The firewall (preValidation). Placeholder: built by the security issue. */
export const securityPlugin = fp(
  async (_app: FastifyInstance, _opts: SecurityOptions & { config: TrellisConfig; database: unknown }) => {},
  { name: 'trellis-security' },
);
