import { stagesOf, type StageRecord } from '../../api-record.ts';
import type { DataCollector } from '../../data-collector.ts';

export interface ApiData {
  /** The resource and operation that ran, or null when the route is not a resource operation. */
  readonly resource: string | null;
  readonly operation: string | null;
  /** The operation's provider and processor, by name. */
  readonly provider: string | null;
  readonly processor: string | null;
  /** The request body's media type, for an operation that reads one. */
  readonly inputFormat: string | null;
  /** The pipeline's stages in order (negotiate, provide, security, deserialize, …) with their outcome. */
  readonly stages: readonly StageRecord[];
  readonly negotiation: {
    readonly accept: string | null;
    readonly format: string | null;
    readonly mediaType: string | null;
    /** What decided the format: the path's extension, or the Accept header. */
    readonly decidedBy: 'extension' | 'accept';
    readonly extension: string | null;
  } | null;
  /** The query as sent (filters, order, page), secrets redacted. */
  readonly query: Readonly<Record<string, unknown>>;
  readonly conditional: {
    readonly ifMatch: string | null;
    readonly ifNoneMatch: string | null;
    readonly etag: string | null;
    /** 304 and 412 are the two outcomes a condition can force (RFC 9110 §13.2.2). */
    readonly outcome: 'not modified' | 'precondition failed' | null;
  };
}

const header = (headers: Readonly<Record<string, unknown>>, name: string): string | null => {
  const value = headers[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : null;
};

/** API Platform's view of a request: which operation ran, how the format was chosen, each stage, and the conditional outcome. */
export const apiCollector: DataCollector<ApiData> = {
  name: 'api',
  collect(ctx) {
    const { redaction } = ctx;
    const api = ctx.api;
    const responseHeaders = ctx.response?.headers ?? {};
    const n = api?.negotiation ?? null;
    return redaction.scrub({
      resource: api?.resource ?? null,
      operation: api?.operation ?? null,
      provider: api?.provider ?? null,
      processor: api?.processor ?? null,
      inputFormat: header(ctx.request.headers, 'content-type'),
      stages: stagesOf(api),
      negotiation: n === null ? null : { accept: n.accept, format: n.format, mediaType: n.mediaType, decidedBy: n.extension === null ? 'accept' : 'extension', extension: n.extension },
      query: redaction.fields(ctx.request.query),
      conditional: {
        ifMatch: header(ctx.request.headers, 'if-match'),
        ifNoneMatch: header(ctx.request.headers, 'if-none-match'),
        etag: header(responseHeaders, 'etag'),
        outcome: ctx.statusCode === 304 ? 'not modified' : ctx.statusCode === 412 ? 'precondition failed' : null,
      },
    } satisfies ApiData);
  },
};
