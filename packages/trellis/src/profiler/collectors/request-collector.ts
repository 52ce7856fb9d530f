import type { DataCollector } from '../data-collector.ts';
import { captureParsedBody, type CapturedBody } from '../capture-body.ts';
import { toIpv4Form } from '../../http/ip-matcher.ts';

export interface RequestData {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  readonly query: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly body: CapturedBody;
  readonly contentType: string | null;
  readonly route: string | null;
  readonly params: Readonly<Record<string, unknown>>;
  readonly ip: string;
  readonly protocol: string;
  readonly httpVersion: string;
  /** For a sub-request: why it ran (e.g. "error"). */
  readonly subRequest: { readonly purpose: string } | null;
}

/** Method, URL, query, headers, body, route and params, with secrets redacted. */
export const requestCollector: DataCollector<RequestData> = {
  name: 'request',
  collect(ctx) {
    const r = ctx.request;
    const { redaction } = ctx;
    const path = r.url.split('?', 1)[0]!;
    const contentType = r.headers['content-type'] ?? null;
    return {
      method: r.method,
      url: redaction.url(r.url),
      path,
      query: redaction.fields({ ...(r.query as Record<string, unknown> | undefined) }),
      headers: redaction.headers(r.headers),
      body: ctx.subRequest ? { text: null, size: 0, truncated: false } : captureParsedBody(r.body, ctx.maxBodyBytes, redaction),
      contentType,
      route: ctx.route?.pattern ?? r.routeOptions?.url ?? null,
      params: redaction.fields({ ...(ctx.route?.params ?? (r.params as Record<string, string> | undefined)) }),
      ip: r.clientIp || toIpv4Form(r.socket?.remoteAddress ?? ''),
      protocol: r.protocol,
      httpVersion: r.raw.httpVersion,
      subRequest: ctx.subRequest ? { purpose: ctx.subRequest.purpose } : null,
    };
  },
};
