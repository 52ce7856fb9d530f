import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { TrellisConfig } from '../app/config.ts';

export interface ProfilerPluginOptions {
  readonly config: TrellisConfig;
}

/** The request profiler (debug configuration only). Placeholder: built by the profiler issue. */
export const profilerPlugin = fp(async (_app: FastifyInstance, _opts: ProfilerPluginOptions) => {}, { name: 'trellis-profiler' });
