import diagnostics from 'node:diagnostics_channel';
import type { ProfileScope } from './profile-scope.ts';

/** One outgoing HTTP request made with `fetch` (undici) while a profiled request ran. */
export interface HttpCallRecord {
  readonly method: string;
  readonly url: string;
  /** Start, in ms from the profiled request's start. */
  readonly atMs: number;
  /** Until the response ended (or failed); null while still running when the profile was taken. */
  durationMs: number | null;
  status: number | null;
  readonly requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string> | null;
  error: string | null;
}

/** Outgoing calls kept per request. */
export const MAX_HTTP_CALLS = 200;
/** A header value kept at most this long. */
const MAX_HEADER_CHARS = 1000;

/** undici's flat [name, value, name, value, …] header list as an object, names lower-cased. */
function headerObject(flat: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(flat)) return out;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = String(flat[i]).toLowerCase();
    const value = String(flat[i + 1]).slice(0, MAX_HEADER_CHARS);
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  }
  return out;
}

interface UndiciRequest {
  readonly method: string;
  readonly origin: string;
  readonly path: string;
  readonly headers: unknown;
}

let users = 0;
let stop: (() => void) | null = null;

/**
 * Observes `fetch` through undici's diagnostics channels (undici:request:*): each request made
 * while a profiled request runs (the scope `currentProfile` holds at creation) is filed in that
 * request's scope, then completed as its response arrives. Returns the function that stops it.
 * One observer serves every profiled app of the process (the scope says whose request it is):
 * two apps each subscribing filed every call twice.
 */
export function observeHttpClient(scopeNow: () => ProfileScope | undefined): () => void {
  if (users++ === 0) stop = subscribeHttpClient(scopeNow);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--users === 0) {
      stop?.();
      stop = null;
    }
  };
}

function subscribeHttpClient(scopeNow: () => ProfileScope | undefined): () => void {
  const open = new WeakMap<object, { record: HttpCallRecord; start: number }>();
  const onCreate = (message: unknown) => {
    const scope = scopeNow();
    if (!scope || scope.closed || scope.httpCalls.length >= MAX_HTTP_CALLS) return;
    const request = (message as { request: UndiciRequest }).request;
    const start = performance.now();
    const record: HttpCallRecord = {
      method: request.method,
      url: `${request.origin}${request.path}`,
      atMs: Math.max(0, start - scope.origin),
      durationMs: null,
      status: null,
      requestHeaders: headerObject(request.headers),
      responseHeaders: null,
      error: null,
    };
    if (scope.addHttpCall(record, MAX_HTTP_CALLS)) open.set(request, { record, start });
  };
  const onHeaders = (message: unknown) => {
    const { request, response } = message as { request: object; response: { statusCode: number; headers: unknown } };
    const call = open.get(request);
    if (!call) return;
    call.record.status = response.statusCode;
    call.record.responseHeaders = headerObject(response.headers);
    call.record.durationMs = performance.now() - call.start;
  };
  const onEnd = (message: unknown) => {
    const { request } = message as { request: object };
    const call = open.get(request);
    if (!call) return;
    call.record.durationMs = performance.now() - call.start;
    open.delete(request);
  };
  const onError = (message: unknown) => {
    const { request, error } = message as { request: object; error: unknown };
    const call = open.get(request);
    if (!call) return;
    call.record.error = error instanceof Error ? error.message : String(error);
    call.record.durationMs = performance.now() - call.start;
    open.delete(request);
  };
  const subscriptions: [string, (message: unknown) => void][] = [
    ['undici:request:create', onCreate],
    ['undici:request:headers', onHeaders],
    ['undici:request:trailers', onEnd],
    ['undici:request:error', onError],
  ];
  for (const [name, fn] of subscriptions) diagnostics.subscribe(name, fn);
  return () => {
    for (const [name, fn] of subscriptions) diagnostics.unsubscribe(name, fn);
  };
}
