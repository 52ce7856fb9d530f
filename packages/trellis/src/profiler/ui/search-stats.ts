import type { ProfileSummary } from '../profile.ts';
import { requestPath } from '../../kernel/routed-path.ts';

/** Upper bounds (exclusive, ms) of the latency histogram's buckets; the last one is open-ended. */
export const LATENCY_BOUNDS = [5, 10, 25, 50, 100, 250, 500, 1000] as const;

/** The route pattern a concrete path matches (`/books/:id` for `/books/1`), or null for none. */
export type RoutePattern = (path: string) => string | null;

export interface RouteStats {
  /** Method and route pattern (`GET /books/:id`), or the path when no route matches (a 404). */
  readonly route: string;
  readonly count: number;
  readonly meanMs: number;
  readonly maxMs: number;
}

/** What the search page's dashboard shows of a listing (search-dashboard.ts). */
export interface SearchStats {
  /** Main requests counted (sub-requests are part of theirs: counting them would count twice). */
  readonly requests: number;
  /** [status, count], by status code. */
  readonly statuses: readonly (readonly [number, number])[];
  /** Requests per bucket of LATENCY_BOUNDS, plus one for 1 s and over. */
  readonly latency: readonly number[];
  /** Slowest first by mean duration, at most `maxRoutes`. */
  readonly slowest: readonly RouteStats[];
  /** Share of 5xx and of 4xx answers, 0..1. */
  readonly serverErrorRate: number;
  readonly clientErrorRate: number;
}

/**
 * The dashboard of a listing, from the summaries the page already fetched: one pass, no store
 * query of its own, so it costs the page nothing it can notice (at most 1,000 summaries).
 * Requests are grouped by route (`routeOf`): `GET /books/1` and `GET /books/2` are one slow
 * route, not two rows each hiding the other.
 */
export function searchStats(results: readonly ProfileSummary[], maxRoutes = 5, routeOf?: RoutePattern): SearchStats {
  const statuses = new Map<number, number>();
  const latency: number[] = new Array<number>(LATENCY_BOUNDS.length + 1).fill(0);
  const routes = new Map<string, { count: number; total: number; max: number }>();
  let requests = 0;
  let serverErrors = 0;
  let clientErrors = 0;
  for (const s of results) {
    if (s.parent !== null) continue;
    requests++;
    statuses.set(s.statusCode, (statuses.get(s.statusCode) ?? 0) + 1);
    if (s.statusCode >= 500) serverErrors++;
    else if (s.statusCode >= 400) clientErrors++;
    const bucket = LATENCY_BOUNDS.findIndex((bound) => s.durationMs < bound);
    latency[bucket === -1 ? LATENCY_BOUNDS.length : bucket]!++;
    const path = requestPath(s.url);
    const route = `${s.method} ${routeOf?.(path) ?? path}`;
    const r = routes.get(route) ?? { count: 0, total: 0, max: 0 };
    r.count++;
    r.total += s.durationMs;
    r.max = Math.max(r.max, s.durationMs);
    routes.set(route, r);
  }
  const slowest = [...routes]
    .map(([route, r]) => ({ route, count: r.count, meanMs: r.total / r.count, maxMs: r.max }))
    .sort((a, b) => b.meanMs - a.meanMs || b.maxMs - a.maxMs || a.route.localeCompare(b.route))
    .slice(0, maxRoutes);
  return {
    requests,
    statuses: [...statuses].sort((a, b) => a[0] - b[0]),
    latency,
    slowest,
    serverErrorRate: requests === 0 ? 0 : serverErrors / requests,
    clientErrorRate: requests === 0 ? 0 : clientErrors / requests,
  };
}
