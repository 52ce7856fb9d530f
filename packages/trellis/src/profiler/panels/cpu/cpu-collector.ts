import type { DataCollector } from '../../data-collector.ts';
import type { CpuSample } from '../../cpu/cpu-profile.ts';

/**
 * The request's CPU profile, as captured and capped on the request thread (cpu/cpu-sampler.ts);
 * null for a request that did not ask for one (JSON-safe, as every collector's data).
 */
export const cpuCollector: DataCollector<CpuSample | null> = {
  name: 'cpu',
  collect: (ctx) => ctx.cpu ?? null,
};
