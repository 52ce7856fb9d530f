import type { NegotiationEvent, ResourceStageEvent, ResourceStagesEvent } from '../observe/channels.ts';

/** One stage of the resource pipeline (provide, security, deserialize, …) as the profile keeps it. */
export interface StageRecord {
  readonly stage: string;
  /** Start, in ms from the request's start. */
  readonly startMs: number;
  readonly durationMs: number;
  readonly outcome: ResourceStageEvent['outcome'];
}

/**
 * What the resource layer did for a request: the API panel's facts (absent for other routes).
 * Stages travel as parallel arrays in whole microseconds: a snapshot is JSON-encoded on the
 * request thread, and nine objects of four keys each were a good part of GET /books/1's.
 */
export interface ApiRecord {
  readonly resource: string;
  readonly operation: string;
  readonly stages: { readonly names: string[]; readonly startUs: number[]; readonly durationUs: number[]; readonly outcomes: ResourceStageEvent['outcome'][] };
  /** The operation's provider and processor, by name. */
  provider?: string;
  processor?: string;
  readonly negotiation: { readonly accept: string | null; readonly format: string | null; readonly mediaType: string | null; readonly extension: string | null } | null;
}

/** Stages kept per request: a pipeline re-entered in a loop must not grow a profile without bound. */
export const MAX_STAGES = 100;

/**
 * The record of a pipeline run from its one `trellis:resource:stages` event: starts made relative
 * to the request's (`origin`, performance.now() ms), at most MAX_STAGES.
 */
export function apiRecord(e: ResourceStagesEvent, origin: number): ApiRecord {
  const n = Math.min(e.names.length, MAX_STAGES);
  const base = Math.round(origin * 1000);
  const startUs: number[] = new Array(n);
  for (let i = 0; i < n; i++) startUs[i] = Math.max(0, e.startUs[i]! - base);
  const detail = e.detail;
  return {
    resource: e.resource,
    operation: e.operation,
    stages: { names: e.names.slice(0, n), startUs, durationUs: e.durationUs.slice(0, n), outcomes: e.outcomes.slice(0, n) },
    negotiation: null,
    ...(typeof detail.provider === 'string' ? { provider: detail.provider, processor: String(detail.processor) } : {}),
  };
}

/** The stages as records (collectors). */
export function stagesOf(api: ApiRecord | null | undefined): StageRecord[] {
  if (!api) return [];
  const { names, startUs, durationUs, outcomes } = api.stages;
  return names.map((stage, i) => ({ stage, startMs: startUs[i]! / 1000, durationMs: durationUs[i]! / 1000, outcome: outcomes[i]! }));
}

export function negotiation(e: NegotiationEvent): ApiRecord['negotiation'] {
  return { accept: e.accept ?? null, format: e.format, mediaType: e.mediaType, extension: e.extension ?? null };
}
