import type { RequestSnapshot } from './profiled-request.ts';
import { routeWhy, type RouteTrace, type RouteTraceEntry } from './route-trace.ts';

type Routing = NonNullable<RequestSnapshot['routing']>;

/** A snapshot's routing record (RequestSnapshot.routing) as it is written in a packed snapshot. */
export interface PackedRouting {
  readonly path: string;
  readonly methods: readonly string[] | null;
  /** The trace's text (`packRouteTrace`); an object in a snapshot packed before it was one. */
  readonly trace?: string | RouteTrace;
}

type PackedEntry = readonly [path: string, methods: readonly string[], level: RouteTraceEntry['level'], closeness: number];

/** Each trace's text, made once: traces are kept and shared between the snapshots of a path (route-trace.ts). */
const texts = new WeakMap<RouteTrace, string>();

/**
 * A 404's route trace was more than half of its snapshot's text (4.5 of 7.9 KB with the kernel's
 * and the profiler's routes: fifty objects, each with its keys and a sentence saying why) and was
 * written again for every 404. Packed, an entry is an array without the sentence (it follows from
 * the level, the methods and the request's method: `routeWhy`), and a trace is written
 * once, as text, which the snapshot then carries as one string.
 */
export function packRouteTrace(trace: RouteTrace): string {
  let text = texts.get(trace);
  if (text === undefined) {
    const entries: PackedEntry[] = trace.entries.map((e) => [e.path, e.methods, e.level, e.closeness]);
    text = JSON.stringify([entries, trace.omitted]);
    texts.set(trace, text);
  }
  return text;
}

/** The trace `packRouteTrace` wrote, for a request made with `method`. */
export function unpackRouteTrace(text: string, method: string): RouteTrace {
  const [entries, omitted] = JSON.parse(text) as [PackedEntry[], number];
  return {
    entries: entries.map(([path, methods, level, closeness]) => ({ path, methods, level, closeness, why: routeWhy(level, method, methods) })),
    omitted,
  };
}

/** The routing record with its trace packed. */
export function packRouting(routing: Routing): PackedRouting {
  return routing.trace === undefined ? routing : { path: routing.path, methods: routing.methods, trace: packRouteTrace(routing.trace) };
}

/** The routing record as collectors read it. */
export function unpackRouting(routing: PackedRouting, method: string): Routing {
  return typeof routing.trace === 'string' ? { path: routing.path, methods: routing.methods, trace: unpackRouteTrace(routing.trace, method) } : (routing as Routing);
}
