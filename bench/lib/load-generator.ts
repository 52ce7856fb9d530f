/** One HTTP request, sent over and over by a load generator. */
export interface LoadRequest {
  readonly method: string;
  /** Path and query, e.g. `/books?page=1`. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface LoadOptions {
  readonly durationSeconds: number;
  readonly connections: number;
  /** Stop after about this many responses instead (durationSeconds is then only a ceiling). */
  readonly requests?: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors and timeouts (not HTTP statuses: a 404 scenario answers 404 on purpose). */
  readonly errors: number;
}

/**
 * Drives a server at `baseUrl` with one request over keep-alive connections for a fixed time.
 * Contract: `run` resolves after about `durationSeconds` with the completed request count, the
 * rate over the run, and p50/p99 latency in milliseconds; with `requests`, it stops once that many
 * responses arrived (a few more may complete on other connections); it rejects if the tool cannot start.
 * Implementations: wrk (preferred: written in C, it leaves more of a 2-core box to the server)
 * and autocannon (pure Node, always available).
 */
export interface LoadGenerator {
  readonly name: string;
  run(baseUrl: string, request: LoadRequest, options: LoadOptions): Promise<LoadResult>;
}
