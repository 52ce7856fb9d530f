import { editDistance } from '../resources/edit-distance.ts';

/**
 * Why each route did or did not answer a request: Symfony's TraceableUrlMatcher, for the Routing
 * panel of a 404 or 405. Taken on the request thread when the profile is handed on (the routes
 * live there), for those answers only.
 */
export interface RouteTraceEntry {
  readonly path: string;
  readonly methods: readonly string[];
  /** `match`: path and method; `method`: the path matches, the method is not allowed; `none`: the path does not match. */
  readonly level: 'match' | 'method' | 'none';
  /** How many leading path segments the route has in common with the request (closest first). */
  readonly closeness: number;
  readonly why: string;
}

export interface RouteTrace {
  readonly entries: readonly RouteTraceEntry[];
  /** Routes past MAX_TRACED, not listed. */
  readonly omitted: number;
}

/** Routes listed at most: the closest ones. */
export const MAX_TRACED = 50;

const patterns = new Map<string, RegExp>();

/**
 * A find-my-way pattern as a regular expression: `:name` one segment part (up to `/` or the next
 * `.`/`-` literal), `:name(re)` that expression, `*` anything.
 */
export function patternRegExp(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (re) return re;
  let source = '';
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === ':' && pattern[i + 1] !== ':') {
      let j = i + 1;
      while (j < pattern.length && /[\w$]/.test(pattern[j]!)) j++;
      if (pattern[j] === '(') {
        let depth = 0;
        let k = j;
        for (; k < pattern.length; k++) {
          if (pattern[k] === '(') depth++;
          else if (pattern[k] === ')' && --depth === 0) break;
        }
        source += `(${pattern.slice(j + 1, k).replace(/^\^|\$$/g, '')})`;
        i = k + 1;
      } else {
        source += pattern[j] === '.' || pattern[j] === '-' ? `([^/]+?)` : '([^/]+)';
        i = j;
      }
    } else if (c === '*') {
      source += '(.*)';
      i++;
    } else {
      const literal = c === ':' ? ':' : c;
      source += literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i += c === ':' ? 2 : 1;
    }
  }
  try {
    re = new RegExp(`^${source}$`);
  } catch {
    re = /(?!)/;
  }
  if (patterns.size > 2000) patterns.clear();
  patterns.set(pattern, re);
  return re;
}

function closeness(pattern: string, path: string): number {
  const a = pattern.split('/');
  const b = path.split('/');
  let n = 0;
  for (let i = 1; i < Math.min(a.length, b.length); i++) {
    const segment = a[i]!;
    if (segment === b[i] || (segment.startsWith(':') && b[i] !== '') || segment === '*') n++;
    else break;
  }
  return n;
}

/**
 * How alike the route's first segment that differs is to the request's, 0 to 1 (one minus their
 * edit distance over the longer): among routes with as many segments in common, `/books` comes
 * before `/_profiler` for `/bookz`, as a reader looking for a typo expects.
 */
function likeness(pattern: string, path: string, common: number): number {
  const a = pattern.split('/')[common + 1];
  const b = path.split('/')[common + 1];
  if (a === undefined || b === undefined || a.startsWith(':') || a === '*') return 0;
  const x = a.slice(0, 64);
  const y = b.slice(0, 64);
  const longer = Math.max(x.length, y.length);
  return longer === 0 ? 0 : 1 - editDistance(x, y) / longer;
}

export function routeTrace(routes: readonly { path: string; methods: readonly string[] }[], method: string, path: string): RouteTrace {
  const entries: RouteTraceEntry[] = routes.map(({ path: pattern, methods }) => {
    if (!patternRegExp(pattern).test(path)) return { path: pattern, methods, level: 'none', closeness: closeness(pattern, path), why: 'The path does not match.' };
    if (methods.includes(method)) return { path: pattern, methods, level: 'match', closeness: Number.MAX_SAFE_INTEGER, why: 'The path and the method match.' };
    return { path: pattern, methods, level: 'method', closeness: Number.MAX_SAFE_INTEGER - 1, why: `The path matches, the method ${method} does not (${methods.join(', ')}).` };
  });
  const order = new Map(entries.map((e, i) => [e, i]));
  const alike = new Map(entries.map((e) => [e, e.level === 'none' ? likeness(e.path, path, e.closeness) : 0]));
  entries.sort((x, y) => y.closeness - x.closeness || alike.get(y)! - alike.get(x)! || order.get(x)! - order.get(y)!);
  const kept = entries.slice(0, MAX_TRACED).map((e) => (e.closeness > 1000 ? { ...e, closeness: path.split('/').length - 1 } : e));
  return { entries: kept, omitted: Math.max(0, entries.length - MAX_TRACED) };
}
