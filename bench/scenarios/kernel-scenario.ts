import type { LoadRequest } from '../lib/load-generator.ts';
import { compareServers } from '../lib/compare-servers.ts';
import type { Scenario } from './scenario.ts';
import { profiledServers } from './profiled-servers.ts';
import { fastifyBaseline, rawNode, trellisServer } from './server-specs.ts';

const SCRIPT = 'bench/servers/trellis-app.ts';

/**
 * The framework's fixed cost, with no resources: Trellis (production and debug) against plain
 * Fastify sending the same bytes, and the raw node:http ceiling.
 */
export function kernelScenario(name: string, title: string, request: LoadRequest, expectStatus: number): Scenario {
  return {
    name,
    title,
    skipReason: async () => null,
    async run(ctx) {
      const debugOff = trellisServer(SCRIPT, 'trellis', 'debug', null, ctx.workDir);
      const profiled = await profiledServers(ctx, (store) => trellisServer(SCRIPT, 'trellis', 'debug', store, ctx.workDir), request.path, false);
      const result = await compareServers(ctx, {
        request,
        expectStatus,
        baseline: 'fastify-baseline',
        bytesFrom: 'trellis-prod',
        servers: [rawNode(), fastifyBaseline(), trellisServer(SCRIPT, 'trellis', 'prod', null, ctx.workDir), debugOff, ...profiled.specs],
        pairs: profiled.specs.map((s) => [`profiler-ratio:${s.name}`, s.name, debugOff.name] as const),
      });
      return { ...result, notes: [...profiled.notes, ...result.notes] };
    },
  };
}
