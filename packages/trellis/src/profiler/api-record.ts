import type { NegotiationEvent, ResourceStageEvent } from '../observe/channels.ts';

/** One stage of the resource pipeline (provide, security, deserialize, …) as the profile keeps it. */
export interface StageRecord {
  readonly stage: string;
  /** Start, in ms from the request's start. */
  readonly startMs: number;
  readonly durationMs: number;
  readonly outcome: ResourceStageEvent['outcome'];
}

/** What the resource layer did for a request: the API panel's facts (absent for other routes). */
export interface ApiRecord {
  readonly resource: string;
  readonly operation: string;
  readonly stages: StageRecord[];
  readonly negotiation: { readonly accept: string | null; readonly format: string | null; readonly mediaType: string | null; readonly extension: string | null } | null;
}

/** Stages kept per request: a pipeline re-entered in a loop must not grow a profile without bound. */
export const MAX_STAGES = 100;

export function addStage(api: ApiRecord | null, e: ResourceStageEvent, endMs: number): ApiRecord {
  const record = api ?? { resource: e.resource, operation: e.operation, stages: [], negotiation: null };
  if (record.stages.length < MAX_STAGES) record.stages.push({ stage: e.stage, startMs: Math.max(0, endMs - e.durationMs), durationMs: e.durationMs, outcome: e.outcome });
  return record;
}

export function negotiation(e: NegotiationEvent): ApiRecord['negotiation'] {
  return { accept: e.accept ?? null, format: e.format, mediaType: e.mediaType, extension: e.extension ?? null };
}
