import type { DataCollector } from '../../data-collector.ts';
import { capturePayload, type CapturedBody } from '../../capture-body.ts';
import { responseCookies } from '../../cookies.ts';

export interface ResponseData {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, unknown>>;
  readonly contentType: string | null;
  /** Bytes of the body as sent. */
  readonly size: number;
  readonly body: CapturedBody;
  /** The cookies set, by name: value redacted, attributes as sent. */
  readonly cookies: Readonly<Record<string, string>>;
}

/** Status, headers, size and (up to the limit) body of the response. */
export const responseCollector: DataCollector<ResponseData> = {
  name: 'response',
  collect(ctx) {
    const response = ctx.response;
    const headers = ctx.redaction.headers(response?.headers ?? {});
    const contentType = ctx.subRequest?.contentType ?? (typeof headers['content-type'] === 'string' ? headers['content-type'] : null);
    const body = capturePayload(response?.payload ?? null, response?.size ?? 0, contentType ?? '', ctx.maxBodyBytes, ctx.redaction);
    return { statusCode: ctx.statusCode, headers, contentType, size: body.size, body, cookies: responseCookies(response?.headers['set-cookie']) };
  },
};
