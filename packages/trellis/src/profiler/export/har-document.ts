import { STATUS_CODES } from 'node:http';
import type { Cookie, Entry, Har, Header, PostData, QueryString, Request, Response } from 'har-format';
import type { CapturedBody } from '../capture-body.ts';
import type { HttpCallData, HttpClientData } from '../panels/http-client/http-client-collector.ts';
import type { RequestData } from '../panels/request/request-collector.ts';
import type { ResponseData } from '../panels/response/response-collector.ts';
import type { Profile } from '../profile.ts';
import { dataOf } from '../ui/panels/panel.ts';

/**
 * A stored profile as a HAR 1.2 log (http://www.softwareishard.com/blog/har-12-spec/), for a
 * browser's devtools to import: the request as the first entry, then the outgoing calls it made
 * (`fetch`, the HTTP Client panel), each a real HTTP exchange of its own. Error sub-requests are
 * not entries: they are renderings inside this exchange, not requests on the wire.
 *
 * Only what the profile stored goes in, so every secret is already "[redacted]" there.
 */
export function harOf(profile: Profile, creatorVersion: string): Har {
  const request = dataOf<RequestData>(profile, 'request');
  const response = dataOf<ResponseData>(profile, 'response');
  const calls = dataOf<HttpClientData>(profile, 'http_client')?.calls ?? [];
  const started = new Date(profile.time).toISOString();
  const main: Entry = {
    pageref: profile.token,
    startedDateTime: started,
    time: profile.durationMs,
    request: harRequest(profile, request),
    response: harResponse(profile, response, request?.httpVersion),
    cache: {},
    // The server's view: from the request's arrival to its response, all of it "wait" (HAR §timings:
    // -1 for what does not apply; send and receive are not optional, so 0).
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: profile.durationMs, receive: 0 },
    comment: `Trellis profile ${profile.token}${profile.parent ? ` (a sub-request of ${profile.parent})` : ''}`,
  };
  return {
    log: {
      version: '1.2',
      creator: { name: 'Trellis profiler', version: creatorVersion },
      pages: [{ id: profile.token, startedDateTime: started, title: `${profile.method} ${profile.url}`, pageTimings: { onContentLoad: -1, onLoad: -1 } }],
      entries: [main, ...calls.map((call) => callEntry(profile, call))],
      comment: 'Exported from a stored profile: values the profiler redacted read "[redacted]".',
    },
  };
}

function harRequest(profile: Profile, data: RequestData | null): Request {
  const url = absolute(profile.url, data?.protocol);
  const body = data?.body;
  const request: Request = {
    method: profile.method,
    url,
    httpVersion: httpVersion(data?.httpVersion),
    cookies: Object.keys(data?.cookies ?? {}).map((name) => ({ name, value: data!.cookies[name]! })),
    headers: harHeaders(data?.headers ?? {}),
    queryString: queryOf(url),
    headersSize: -1,
    // -1: not known (HAR §request), as for a body the route streamed itself.
    bodySize: !body || body.note === 'stream' || body.note === 'unread' ? -1 : body.size,
  };
  const postData = body && postDataOf(body, data.contentType);
  return postData ? { ...request, postData } : request;
}

/** HAR §postData: the text as stored; a form's pairs also as params. */
function postDataOf(body: CapturedBody, contentType: string | null): PostData | undefined {
  if (body.text === null && !body.note) return undefined;
  const mimeType = contentType ?? '';
  const comment = bodyComment(body);
  if (body.text === null) return { mimeType, text: '', ...(comment ? { comment } : {}) };
  const params = /^application\/x-www-form-urlencoded\b/i.test(mimeType) ? [...new URLSearchParams(body.text)].map(([name, value]) => ({ name, value })) : undefined;
  return { mimeType, text: body.text, ...(params ? { params } : {}), ...(comment ? { comment } : {}) } as PostData;
}

function bodyComment(body: CapturedBody): string | null {
  if (body.note) return `Body not recorded (${body.note}${body.size > 0 ? `, ${body.size} bytes` : ''}).`;
  if (body.truncated) return `Body cut at the profiler's limit: ${Buffer.byteLength(body.text ?? '')} of ${body.size} bytes.`;
  return null;
}

function harResponse(profile: Profile, data: ResponseData | null, version: string | undefined): Response {
  const body = data?.body;
  const comment = body ? bodyComment(body) : 'The response was not recorded.';
  return {
    status: profile.statusCode,
    statusText: STATUS_CODES[profile.statusCode] ?? '',
    httpVersion: httpVersion(version),
    cookies: Object.entries(data?.cookies ?? {}).map(([name, line]) => setCookie(name, line)),
    headers: harHeaders(data?.headers ?? {}),
    content: {
      size: data?.size ?? 0,
      mimeType: data?.contentType ?? 'x-unknown',
      ...(body?.text != null ? { text: body.text } : {}),
      ...(comment ? { comment } : {}),
    },
    redirectURL: typeof data?.headers.location === 'string' ? data.headers.location : '',
    headersSize: -1,
    bodySize: data?.size ?? -1,
  };
}

/** An outgoing call (HTTP Client panel) as an entry; its bodies were never recorded. */
function callEntry(profile: Profile, call: HttpCallData): Entry {
  const contentType = call.responseHeaders?.['content-type'];
  const time = call.durationMs ?? 0;
  return {
    pageref: profile.token,
    startedDateTime: new Date(profile.time + call.atMs).toISOString(),
    time,
    request: { method: call.method, url: bracketsEncoded(call.url), httpVersion: 'HTTP/1.1', cookies: [], headers: harHeaders(call.requestHeaders), queryString: queryOf(call.url), headersSize: -1, bodySize: -1 },
    response: {
      // HAR has no field for a failed exchange: status 0, as browsers export one.
      status: call.status ?? 0,
      statusText: call.status === null ? '' : (STATUS_CODES[call.status] ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(call.responseHeaders ?? {}),
      content: { size: -1, mimeType: contentType ?? 'x-unknown', comment: 'Bodies of outgoing calls are not recorded.' },
      redirectURL: call.responseHeaders?.location ?? '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    comment: call.error ? `Outgoing call made while serving ${profile.token}; failed: ${call.error}` : `Outgoing call made while serving ${profile.token}`,
  };
}

/** Header objects (a value may be a list, as Node keeps Set-Cookie) as HAR's name/value list. */
function harHeaders(headers: Readonly<Record<string, unknown>>): Header[] {
  const out: Header[] = [];
  for (const [name, value] of Object.entries(headers)) {
    // HTTP/2 pseudo-headers (RFC 9113 §8.3) are not headers: HAR has the method and URL for them.
    if (name.startsWith(':') || value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push({ name, value: String(v) });
  }
  return out;
}

/** A Set-Cookie line as the response collector stored it ("[redacted]; Path=/; HttpOnly"), as a HAR cookie. */
function setCookie(name: string, line: string): Cookie {
  const [value = '', ...attributes] = line.split('; ');
  const cookie: Cookie = { name, value };
  for (const attribute of attributes) {
    const eq = attribute.indexOf('=');
    const key = (eq < 0 ? attribute : attribute.slice(0, eq)).toLowerCase();
    const v = eq < 0 ? '' : attribute.slice(eq + 1);
    if (key === 'path') cookie.path = v;
    else if (key === 'domain') cookie.domain = v;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'expires' && !Number.isNaN(Date.parse(v))) cookie.expires = new Date(v).toISOString();
  }
  return cookie;
}

/** HAR §request.queryString: the pairs of the URL's query, decoded. */
function queryOf(url: string): QueryString[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  return [...new URLSearchParams(url.slice(q + 1).split('#', 1)[0])].map(([name, value]) => ({ name, value }));
}

/**
 * HAR wants an absolute URL. A profile's is one unless the client sent no Host (HTTP/1.0): then
 * the path is put on `localhost`, the one host it certainly reached. Brackets (JSON:API's
 * `page[size]`, "[redacted]") are percent-encoded: RFC 3986 §3.4 does not allow them in a query.
 */
function absolute(url: string, protocol: string | undefined): string {
  return bracketsEncoded(absoluteProfileUrl(url, protocol));
}

/** A profile's URL, absolute (see `absolute`). */
export function absoluteProfileUrl(url: string, protocol: string | undefined): string {
  return /^https?:\/\//i.test(url) ? url : `${protocol === 'https' ? 'https' : 'http'}://localhost${url.startsWith('/') ? '' : '/'}${url}`;
}

function bracketsEncoded(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q) + url.slice(q).replaceAll('[', '%5B').replaceAll(']', '%5D');
}

/** "1.1" → "HTTP/1.1", as HAR writes it. */
function httpVersion(version: string | undefined): string {
  return version ? `HTTP/${version}` : 'HTTP/1.1';
}
