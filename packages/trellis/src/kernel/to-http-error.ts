import { HttpError } from './http-error.ts';
import { databaseRejectedValue } from '../data/database-rejected-value.ts';
import { isDatabaseUnavailable } from '../data/database-unavailable.ts';

/** Seconds a client should wait before retrying while the database is away (RFC 9110 §10.2.3). */
const DATABASE_RETRY_AFTER = '5';

interface FrameworkError {
  readonly code?: string;
  readonly statusCode?: number;
  readonly message: string;
}

/**
 * Normalises anything thrown into an HttpError. Our own pass through; Fastify's client errors
 * (bad content type, body too large, schema validation…) keep their status and get our codes and
 * messages; everything else is a 500 that keeps the original as its cause.
 */
export function toHttpError(error: unknown, context: { contentType?: string; supportedContentTypes: () => readonly string[]; bodyLimit: number }): HttpError {
  if (error instanceof HttpError) return error;
  const e = (error instanceof Error ? error : new Error(String(error))) as Error & FrameworkError;
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      if (e.statusCode === 415) {
        return HttpError.of(
          'unsupported_media_type',
          { contentType: context.contentType ?? '', supported: context.supportedContentTypes().map((t) => `"${t}"`).join(', ') },
          { cause: e },
        );
      }
      break;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return HttpError.of('body_too_large', { limit: context.bodyLimit }, { cause: e });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return HttpError.of('empty_json_body', {}, { cause: e });
    case 'FST_ERR_BAD_URL':
      return HttpError.of('malformed_url', { path: e.message.match(/'(.*)'/)?.[1] ?? '' }, { cause: e });
  }
  if (isDatabaseUnavailable(e)) return HttpError.of('database_unavailable', {}, { cause: e, headers: { 'retry-after': DATABASE_RETRY_AFTER } });
  const rejected = databaseRejectedValue(e);
  if (rejected !== null) return HttpError.of('database_rejected_value', { reason: rejected }, { cause: e });
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return new HttpError(status, e.code ? e.code.toLowerCase() : 'bad_request', e.message, { cause: e, className: e.name });
  }
  return HttpError.of('internal_error', { detail: e.message }, { cause: e });
}
