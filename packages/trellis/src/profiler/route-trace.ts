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

/** A route as the trace compares it: its pattern's expression and segments, worked out once. */
interface PreparedRoute {
  readonly path: string;
  readonly methods: readonly string[];
  readonly re: RegExp;
  readonly segments: readonly string[];
}

/** A route table prepared, and the traces last taken against it (by method and path). */
interface PreparedTable {
  readonly routes: readonly PreparedRoute[];
  readonly traces: Map<string, RouteTrace>;
}

/**
 * Traces kept per table, the most recent: the 404s an app gets are mostly the same few paths asked
 * again (a favicon, robots.txt, a scanner's list), and a trace depends only on the table, the
 * method and the path. A trace is never changed once made, so snapshots may share it.
 */
const KEPT_TRACES = 64;

/**
 * Each route table's prepared routes, kept with the table (RouteMap.entries() returns the same
 * array until a route is added). Every 404 is traced while it is recorded, on the request thread:
 * splitting every pattern and comparing every route's first differing segment letter by letter,
 * again for each request, was a fifth of that thread's time under a load of 404s.
 */
const prepared = new WeakMap<readonly { path: string; methods: readonly string[] }[], PreparedTable>();

function prepare(routes: readonly { path: string; methods: readonly string[] }[]): PreparedTable {
  let table = prepared.get(routes);
  if (!table) {
    table = { routes: routes.map(({ path, methods }) => ({ path, methods, re: patternRegExp(path), segments: path.split('/') })), traces: new Map() };
    prepared.set(routes, table);
  }
  return table;
}

/** How many leading segments the pattern has in common with the path (from the first, after the leading `/`). */
function closeness(pattern: readonly string[], path: readonly string[]): number {
  let n = 0;
  for (let i = 1; i < Math.min(pattern.length, path.length); i++) {
    const segment = pattern[i]!;
    if (segment === path[i] || (segment.startsWith(':') && path[i] !== '') || segment === '*') n++;
    else break;
  }
  return n;
}

/**
 * How alike the route's first segment that differs is to the request's, 0 to 1 (one minus their
 * edit distance over the longer): among routes with as many segments in common, `/books` comes
 * before `/_profiler` for `/bookz`, as a reader looking for a typo expects. Routes sharing that
 * segment (thirty under `/_profiler`) share the figure: `seen` keeps it for one trace.
 */
function likeness(pattern: readonly string[], path: readonly string[], common: number, seen: Map<string, number>): number {
  const a = pattern[common + 1];
  const b = path[common + 1];
  if (a === undefined || b === undefined || a.startsWith(':') || a === '*') return 0;
  const key = `${common}/${a}`;
  let alike = seen.get(key);
  if (alike === undefined) {
    const x = a.slice(0, 64);
    const y = b.slice(0, 64);
    const longer = Math.max(x.length, y.length);
    alike = longer === 0 ? 0 : 1 - editDistance(x, y) / longer;
    seen.set(key, alike);
  }
  return alike;
}

const MATCH = Number.MAX_SAFE_INTEGER;

/** Why a route did or did not answer a request made with `method` (Symfony's TraceableUrlMatcher says it in a sentence too). */
export function routeWhy(level: RouteTraceEntry['level'], method: string, methods: readonly string[]): string {
  if (level === 'match') return 'The path and the method match.';
  if (level === 'method') return `The path matches, the method ${method} does not (${methods.join(', ')}).`;
  return 'The path does not match.';
}

export function routeTrace(routes: readonly { path: string; methods: readonly string[] }[], method: string, path: string): RouteTrace {
  const { routes: table, traces } = prepare(routes);
  const key = `${method} ${path}`;
  const kept = traces.get(key);
  if (kept) {
    // Most recent last: the map's order is its eviction order.
    traces.delete(key);
    traces.set(key, kept);
    return kept;
  }
  const trace = traced(table, method, path);
  if (traces.size >= KEPT_TRACES) traces.delete(traces.keys().next().value!);
  traces.set(key, trace);
  return trace;
}

function traced(table: readonly PreparedRoute[], method: string, path: string): RouteTrace {
  const segments = path.split('/');
  const seen = new Map<string, number>();
  // Sort keys side by side, indexed by route; entries are made for the routes listed only.
  const near = new Array<number>(table.length);
  const alike = new Array<number>(table.length);
  const order = new Array<number>(table.length);
  for (let i = 0; i < table.length; i++) {
    const route = table[i]!;
    order[i] = i;
    if (!route.re.test(path)) {
      near[i] = closeness(route.segments, segments);
      alike[i] = likeness(route.segments, segments, near[i]!, seen);
    } else {
      near[i] = route.methods.includes(method) ? MATCH : MATCH - 1;
      alike[i] = 0;
    }
  }
  order.sort((x, y) => near[y]! - near[x]! || alike[y]! - alike[x]! || x - y);
  const listed = Math.min(order.length, MAX_TRACED);
  const entries = new Array<RouteTraceEntry>(listed);
  for (let n = 0; n < listed; n++) {
    const i = order[n]!;
    const { path: pattern, methods } = table[i]!;
    const closenessOf = near[i]!;
    const level = closenessOf < MATCH - 1 ? 'none' : closenessOf === MATCH ? 'match' : 'method';
    entries[n] = { path: pattern, methods, level, closeness: level === 'none' ? closenessOf : segments.length - 1, why: routeWhy(level, method, methods) };
  }
  return Object.freeze({ entries: Object.freeze(entries), omitted: Math.max(0, table.length - MAX_TRACED) });
}
