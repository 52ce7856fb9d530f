import type { DataCollector } from '../../data-collector.ts';
import { captureParsedBody, type CapturedBody } from '../../capture-body.ts';
import type { Redaction } from '../../redact.ts';
import { requestCookies } from '../../cookies.ts';
import { requestPath } from '../../../kernel/routed-path.ts';

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
  /** The cookies sent, by name; every value redacted. */
  readonly cookies: Readonly<Record<string, string>>;
  /** Symfony's server parameters, without a session: who asked, over what. */
  readonly server: Readonly<Record<string, string>>;
  /** For a sub-request: why it ran (e.g. "error"). */
  readonly subRequest: { readonly purpose: string } | null;
}

/**
 * A sub-request has no body of its own; its snapshot carries its parent's so that the secrets in
 * it are known to the redaction (what the sub-request rendered may echo them).
 */
function subRequestBody(parentBody: unknown, redaction: Redaction): CapturedBody {
  redaction.fields(parentBody);
  return { text: null, size: 0, truncated: false };
}

/** Method, URL, query, headers, body, route and params, with secrets redacted. */
export const requestCollector: DataCollector<RequestData> = {
  name: 'request',
  collect(ctx) {
    const r = ctx.request;
    const { redaction } = ctx;
    const contentType = r.headers['content-type'];
    return {
      method: r.method,
      url: redaction.url(r.url),
      // Never the target itself: an absolute-form one may carry userinfo, a raw `#` pairs after it.
      path: requestPath(r.url),
      query: redaction.fields(r.query),
      headers: redaction.headers(r.headers),
      body: ctx.subRequest ? subRequestBody(r.body, redaction) : captureParsedBody(r.body, r.bodyNote, ctx.maxBodyBytes, redaction, receivedBytes(r.headers['content-length'])),
      contentType: typeof contentType === 'string' ? contentType : null,
      route: r.route,
      params: redaction.fields(r.params),
      ip: r.ip,
      protocol: r.protocol,
      httpVersion: r.httpVersion,
      cookies: requestCookies(r.headers.cookie),
      server: redaction.scrub({
        'Remote address': r.ip,
        Scheme: r.protocol,
        'HTTP version': r.httpVersion,
        Host: r.host,
        TLS: r.protocol === 'https' ? 'yes' : 'no',
        'User agent': typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : '',
      }),
      subRequest: ctx.subRequest ? { purpose: ctx.subRequest.purpose } : null,
    };
  },
};

/** A Content-Length as a number of bytes, when it is one (RFC 9110 §8.6: 1*DIGIT). */
function receivedBytes(header: unknown): number | undefined {
  return typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
}
