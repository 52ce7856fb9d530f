import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { OncePerInterval } from '../logging/once-per-interval.ts';
import { negotiate } from '../http/negotiate.ts';
import { addVary } from '../http/vary.ts';
import { publish } from '../observe/channels.ts';
import { errorView } from '../errors/error-view.ts';
import type { ErrorFormat } from '../errors/error-format.ts';
import { runSubRequest } from './sub-request.ts';
import { JSONAPI_MEDIA_TYPE } from '../formats/jsonapi/jsonapi-media-type.ts';
import { toHttpError } from './to-http-error.ts';
import { addAcceptPatch } from './accept-patch.ts';
import type { HttpError } from './http-error.ts';

export interface ErrorHandlerOptions {
  readonly debug: boolean;
  readonly formats: readonly ErrorFormat[];
  readonly supportedContentTypes: () => readonly string[];
  readonly bodyLimit: number;
}

// Formats are registered while plugins load; the list of media types is rebuilt only when it grew.
let memo: { formats: readonly ErrorFormat[]; length: number; available: string[] } | null = null;

function mediaTypesOf(formats: readonly ErrorFormat[]): string[] {
  if (memo === null || memo.formats !== formats || memo.length !== formats.length) {
    memo = { formats, length: formats.length, available: formats.flatMap((f) => f.mediaTypes) };
  }
  return memo.available;
}

function pickFormat(request: FastifyRequest, formats: readonly ErrorFormat[]): { format: ErrorFormat; mediaType: string } {
  const available = mediaTypesOf(formats);
  // An error is never turned into a 406: with nothing acceptable, the first format answers.
  const mediaType = negotiate(request.headers.accept, available) ?? available[0]!;
  const format = formats.find((f) => f.mediaTypes.includes(mediaType))!;
  return { format, mediaType };
}

/**
 * The error phase: maps what was thrown to an HttpError, logs it, and renders it in the format the
 * client accepts, inside a child request context (a sub-request) that observers can record.
 */
/** Errors that mean a dependency is away, not a bug: logged once per interval each. */
const OUTAGES = new Map<string, { what: string; log: OncePerInterval }>([
  ['database_unavailable', { what: 'Database', log: new OncePerInterval(10_000) }],
  ['profile_store_unavailable', { what: 'Profile store', log: new OncePerInterval(10_000) }],
]);

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply, options: ErrorHandlerOptions): void {
  const httpError: HttpError = toHttpError(error, {
    contentType: request.headers['content-type'],
    // A 415 names what this route reads (a PATCH: merge-patch, JSON:API), not every type of the app.
    supportedContentTypes: () => request.routeOptions?.config?.inputMediaTypes ?? options.supportedContentTypes(),
    bodyLimit: options.bodyLimit,
  });
  const log = request.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  // Symfony logs every uncaught exception at ERROR on the "request" channel (4xx too); in debug we
  // do the same, so the exception page and the Logs panel show it. In production a client error
  // is routine traffic (scanners' 404s): info, beside the request's own line.
  const level = httpError.status >= 500 || options.debug ? 'error' : 'info';
  const outage = OUTAGES.get(httpError.code);
  if (outage) {
    // While a dependency is away every request that needs it fails alike: one warning per
    // interval with the count, not a stack per request. The failures of the outage's last
    // interval are told when it ends (on the app's logger: no request is the one they belong to),
    // not left to open the next outage's first line.
    const cause = httpError.cause instanceof Error ? httpError.cause.message : String(httpError.cause);
    const { status, code } = httpError;
    const line = (count: number) => `${outage.what} unavailable (${cause}): ${count} ${count === 1 ? 'request' : 'requests'} answered ${status} since the last report.`;
    const serverLog = request.server.log;
    const count = outage.log.hitOrLater((late) => serverLog.warn({ status, code, channel: 'request', failures: late }, line(late)));
    if (count !== null) log.warn({ status, code, channel: 'request', failures: count }, line(count));
  } else if (log.isLevelEnabled?.(level) !== false) {
    const logContext = { status: httpError.status, code: httpError.code, channel: 'request' };
    const message = `Uncaught exception ${httpError.className}: "${httpError.message}"`;
    if (httpError.status >= 500) log.error({ ...logContext, err: error }, message);
    else if (level === 'error') log.error(logContext, message);
    else log.info(logContext, message);
  }
  publish('error', () => ({ request, error: httpError, status: httpError.status }));

  const logs = request.trellisScope?.logs ?? [];
  const view = errorView(httpError, { debug: options.debug, logs: [...logs] });
  const { format, mediaType } = pickFormat(request, options.formats);
  const body = runSubRequest(request, 'error', () => ({
    statusCode: view.status,
    contentType: mediaType,
    value: format.render(view, mediaType, request),
  }));
  reply.code(view.status).headers(view.headers);
  // Fastify asks to close the connection after a body that failed to parse; HTTP/2 has no such
  // header (RFC 9113 §8.2.2), and Node drops it with a warning printed to stderr.
  if (request.raw.httpVersionMajor === 2) reply.removeHeader('connection');
  addAcceptPatch(httpError, request, reply);
  if (format.headers) reply.headers(format.headers);
  // RFC 9110 §12.5.5: the representation depends on Accept.
  addVary(reply, 'Accept');
  reply.type(mediaType.startsWith('text/') ? `${mediaType}; charset=utf-8` : mediaType);
  // A Buffer is sent as typed: Fastify adds `charset` to a JSON string's type, which JSON:API forbids.
  reply.send(mediaType === JSONAPI_MEDIA_TYPE && typeof body === 'string' ? Buffer.from(body) : body);
}
