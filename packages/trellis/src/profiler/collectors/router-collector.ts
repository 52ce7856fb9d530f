import type { DataCollector } from '../data-collector.ts';
import type { RouteTraceEntry } from '../route-trace.ts';

export interface RouterData {
  /** The route that answered (its pattern), or null. */
  readonly route: string | null;
  readonly params: Readonly<Record<string, unknown>>;
  /** The path as the router saw it (decoded). */
  readonly path: string | null;
  readonly method: string;
  /** The methods the path allows, or null when no route has it. */
  readonly methods: readonly string[] | null;
  readonly statusCode: number;
  /** For a 404 or 405: every route, closest first, and why it did not answer. */
  readonly trace: readonly RouteTraceEntry[] | null;
  readonly omitted: number;
}

/** Symfony's Routing panel: the route that matched and its parameters, or why none did. */
export const routerCollector: DataCollector<RouterData> = {
  name: 'router',
  collect(ctx) {
    const { redaction } = ctx;
    const routing = ctx.routing;
    return redaction.scrub({
      route: ctx.request.route,
      params: redaction.fields(ctx.request.params),
      path: routing?.path ?? null,
      method: ctx.request.method,
      methods: routing?.methods ?? null,
      statusCode: ctx.statusCode,
      trace: routing?.trace?.entries ?? null,
      omitted: routing?.trace?.omitted ?? 0,
    });
  },
};
