import { createRequire } from 'node:module';
import type { LoadGenerator, LoadOptions, LoadRequest, LoadResult } from './load-generator.ts';

/** The part of autocannon's programmatic API used here (it ships no types). */
interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
  duration: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (
  opts: Record<string, unknown>,
  cb: (err: Error | null, result: AutocannonResult) => void,
) => unknown;

export class AutocannonLoadGenerator implements LoadGenerator {
  readonly name = 'autocannon';

  async run(baseUrl: string, request: LoadRequest, options: LoadOptions): Promise<LoadResult> {
    const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
    const result = await new Promise<AutocannonResult>((resolve, reject) => {
      autocannon(
        {
          url: new URL(request.path, baseUrl).href,
          method: request.method,
          headers: request.headers ?? {},
          body: request.body,
          connections: options.connections,
          duration: options.durationSeconds,
          ...(options.requests !== undefined && { amount: options.requests }),
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
    });
    return {
      requests: result.requests.total,
      requestsPerSecond: result.duration > 0 ? result.requests.total / result.duration : 0,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.timeouts,
    };
  }
}
