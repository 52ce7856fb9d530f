import type { Profile, ProfileQuery, ProfileSummary } from './profile.ts';
import { ProfileSourceError, type ProfileSource } from './profile-source.ts';
import { isToken } from './token.ts';

/** The search endpoint's own cap on `limit` (ui/search-params.ts). */
const MAX_LIMIT = 100;
/**
 * The most a profiler answer is read: a profile is tens of kilobytes (a capped CPU profile about
 * 300 kB); whatever answers at `--url` is not trusted to end its body.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The body as text, or an error once it passes `max` bytes (the rest is not read). */
async function cappedText(res: Response, max: number, origin: string): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) {
      await res.body.cancel().catch(() => {});
      throw new ProfileSourceError(`${origin} sent more than ${Math.round(max / 1024 / 1024)} MB in one answer: not a Trellis profiler's.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What a profiler URL may be: http(s), nothing after the origin but a path prefix. */
export function profilerBaseUrl(url: string): URL {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new ProfileSourceError(`"${url}" is not a URL: expected the app's address, such as http://127.0.0.1:8000.`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new ProfileSourceError(`"${url}" is not an http:// or https:// URL.`);
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return base;
}

/**
 * A running app's profiler, through its JSON endpoints (`/_profiler/search.json`,
 * `/_profiler/<token>.json`): the same gate applies, so this works from where a browser would.
 */
export function httpProfileSource(url: string, fetchTimeoutMs = 10_000, maxBytes = MAX_ANSWER_BYTES): ProfileSource {
  const base = profilerBaseUrl(url);
  const origin = base.href.replace(/\/$/, '');
  const noProfiler = () => new ProfileSourceError(`No profiler answers at ${origin}/_profiler: the app runs in production, its profiler is off, or PROFILER_ALLOW does not admit this client.`);

  async function get(path: string): Promise<{ status: number; body: Record<string, unknown> | null }> {
    let res: Response;
    try {
      res = await fetch(new URL(path, base), { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(fetchTimeoutMs), redirect: 'error' });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new ProfileSourceError(`Could not reach ${origin}: ${cause}.`, { cause: error });
    }
    const text = await cappedText(res, maxBytes, origin);
    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: not a Trellis profiler (or a proxy's page); judged by the status below.
    }
    if (res.status === 503) throw new ProfileSourceError(`The profile store of ${origin} is unavailable: ${String(body?.detail ?? res.statusText)}`);
    if (res.status === 400) throw new ProfileSourceError(String(body?.detail ?? `${origin} refused the request (400).`));
    if (res.status !== 200 && res.status !== 404) throw new ProfileSourceError(`${origin} answered ${res.status} ${res.statusText}.`);
    return { status: res.status, body };
  }

  return {
    async find(query: ProfileQuery): Promise<ProfileSummary[]> {
      const params = new URLSearchParams({ limit: String(Math.min(query.limit, MAX_LIMIT)) });
      if (query.ip !== undefined) params.set('ip', query.ip);
      if (query.method !== undefined) params.set('method', query.method);
      if (query.statusCode !== undefined) params.set('status_code', String(query.statusCode));
      if (query.statusClass !== undefined) params.set('status_code', `${query.statusClass}xx`);
      if (query.url !== undefined) params.set('url', query.url);
      const { status, body } = await get(`_profiler/search.json?${params}`);
      if (status !== 200 || !Array.isArray(body?.results)) throw noProfiler();
      const summaries = (body.results as ProfileSummary[]).map(({ token, parent, ip, method, url, time, statusCode, durationMs }) => ({ token, parent, ip, method, url, time, statusCode, durationMs }));
      return query.mainOnly ? summaries.filter((s) => s.parent === null) : summaries;
    },
    async read(token: string): Promise<Profile | null> {
      // Only a token goes into the path: never one a user could make into another URL.
      if (token !== 'latest' && !isToken(token)) return null;
      const { status, body } = await get(`_profiler/${token}.json`);
      if (status === 404) {
        if (typeof body?.detail === 'string' && body.detail.startsWith('Token "')) return null;
        throw noProfiler();
      }
      if (!body || typeof body.token !== 'string') throw noProfiler();
      const { formattedTime: _t, links: _l, ...profile } = body;
      return profile as unknown as Profile;
    },
    close: async () => {},
  };
}
