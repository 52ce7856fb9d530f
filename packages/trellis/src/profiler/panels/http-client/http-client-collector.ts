import type { DataCollector } from '../../data-collector.ts';

export interface HttpCallData {
  readonly method: string;
  readonly url: string;
  readonly atMs: number;
  readonly durationMs: number | null;
  readonly status: number | null;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly responseHeaders: Readonly<Record<string, string>> | null;
  readonly error: string | null;
  /** The callee's own profile, when it is a profiled service (its X-Debug-Token-Link). */
  readonly profile: string | null;
}

export interface HttpClientData {
  readonly calls: readonly HttpCallData[];
  readonly count: number;
  readonly failed: number;
  readonly durationMs: number;
}

const EMPTY: HttpClientData = { calls: [], count: 0, failed: 0, durationMs: 0 };

/**
 * Symfony's HTTP Client panel: every request the app made with `fetch` while serving this one,
 * with its status, timing and headers (credentials redacted, and scrubbed wherever they recur),
 * and a link to the callee's profile when it answered with X-Debug-Token-Link: profiles across
 * services.
 */
export const httpClientCollector: DataCollector<HttpClientData> = {
  name: 'http_client',
  collect(ctx) {
    const recorded = ctx.httpCalls ?? [];
    if (recorded.length === 0) return EMPTY;
    const { redaction } = ctx;
    redaction.learnRequest(ctx.request);
    const calls = recorded.map((c) => {
      const requestHeaders = redaction.headers(c.requestHeaders) as Record<string, string>;
      const responseHeaders = c.responseHeaders === null ? null : (redaction.headers(c.responseHeaders) as Record<string, string>);
      const link = c.responseHeaders?.['x-debug-token-link'] ?? null;
      return {
        method: c.method,
        url: redaction.url(c.url),
        atMs: c.atMs,
        durationMs: c.durationMs,
        status: c.status,
        requestHeaders,
        responseHeaders,
        error: c.error,
        profile: link !== null && /^https?:\/\//i.test(link) ? link : null,
      };
    });
    return redaction.scrub({
      calls,
      count: calls.length,
      failed: calls.filter((c) => c.error !== null || (c.status !== null && c.status >= 500)).length,
      durationMs: calls.reduce((sum, c) => sum + (c.durationMs ?? 0), 0),
    });
  },
};
