import type { ProfiledRequest } from './profiled-request.ts';

/**
 * One panel's worth of data about a request. Contract: `collect` runs after the response was sent,
 * once per profile; it returns plain JSON-safe data (no functions, class instances, Buffers or
 * cycles), passes request-derived values through `ctx.redaction`, keeps no per-request state on
 * `this`, and may throw: the profiler then stores `{ error }` for that collector and carries on.
 */
export interface DataCollector<D = unknown> {
  /** Key of the data in the profile and of the panel in the UI (kebab-case). */
  readonly name: string;
  collect(ctx: ProfiledRequest): D | Promise<D>;
}
