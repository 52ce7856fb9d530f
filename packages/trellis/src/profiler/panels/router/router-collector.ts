import type { DataCollector } from '../../data-collector.ts';
import type { RouteTraceEntry } from '../../route-trace.ts';
import { routedPath } from '../../../kernel/routed-path.ts';

export interface RouterData {
  /** The route that answered (its pattern), or null. */
  readonly route: string | null;
  readonly params: Readonly<Record<string, unknown>>;
  /** The path as the router saw it (decoded). */
  readonly path: string | null;
  readonly method: string;
  /** For a 404/405, the methods the path allows (null: no route has it); for a matched request, null (the panel asks the app). */
  readonly methods: readonly string[] | null;
  readonly statusCode: number;
  /** For a 404 or 405: every route, closest first, and why it did not answer. */
  readonly trace: readonly RouteTraceEntry[] | null;
  readonly omitted: number;
}

/** The path as the router saw it, or null for one it cannot decode. */
function pathOf(url: string): string | null {
  try {
    return routedPath(url);
  } catch {
    return null;
  }
}

/** Symfony's Routing panel: the route that matched and its parameters, or why none did. */
export const routerCollector: DataCollector<RouterData> = {
  name: 'router',
  collect(ctx) {
    const { redaction } = ctx;
    const routing = ctx.routing;
    return redaction.scrub({
      route: ctx.request.route,
      // No route answered (a 404, a 405): the not-found handler's wildcard is no parameter of the app's.
      params: ctx.request.route === null ? {} : redaction.fields(ctx.request.params),
      path: routing?.path ?? pathOf(ctx.request.url),
      method: ctx.request.method,
      methods: routing?.methods ?? null,
      statusCode: ctx.statusCode,
      trace: routing?.trace?.entries ?? null,
      omitted: routing?.trace?.omitted ?? 0,
    });
  },
};
