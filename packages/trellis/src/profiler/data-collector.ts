import type { ProfiledRequest } from './profiled-request.ts';

/**
 * One panel's worth of data about a request. Contract (checked by `data-collector.contract.ts`):
 * `collect` runs after the response was sent, once per profile, and sees the request only through
 * `ctx`, a plain snapshot taken on the request thread (no live Fastify request: what a panel needs
 * of the lifecycle reaches the snapshot through diagnostics_channel events). It returns plain
 * JSON-safe data (no functions, class instances, Buffers or cycles), passes request-derived values
 * through `ctx.redaction`, keeps no per-request state on `this`, and may throw: the profiler then
 * stores `{ error }` for that collector and carries on.
 *
 * Where it runs: the built-in collectors run where profiles are built: on the profiler thread for
 * a store named by `PROFILER_DSN` when the snapshot may hold a secret, else when the profile is
 * first read (it is stored as its snapshot's JSON), so they must give the same data from a
 * structured clone or a JSON round trip of the snapshot. Collectors an app adds run on the request
 * thread after the response is sent; their data, and the secrets they redacted, travel with the
 * snapshot.
 */
export interface DataCollector<D = unknown> {
  /** Key of the data in the profile and of the panel in the UI (kebab-case). */
  readonly name: string;
  collect(ctx: ProfiledRequest): D | Promise<D>;
}
