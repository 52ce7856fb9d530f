import type { NegotiationEvent, ResourceStageEvent, ResourceStagesEvent } from '../observe/channels.ts';
import { sameStrings } from './same-strings.ts';

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
 * Stages are parallel arrays in whole microseconds.
 */
export interface ApiRecord {
  readonly resource: string;
  readonly operation: string;
  readonly stages: { readonly names: readonly string[]; readonly startUs: readonly number[]; readonly durationUs: readonly number[]; readonly outcomes: readonly ResourceStageEvent['outcome'][] };
  /** The operation's provider and processor, by name. */
  readonly provider?: string;
  readonly processor?: string;
  readonly negotiation: { readonly accept: string | null; readonly format: string | null; readonly mediaType: string | null; readonly extension: string | null } | null;
}

/**
 * An ApiRecord as a snapshot carries it (`packApi`): the timings, and the rest (resource,
 * operation, provider, processor, stage names and outcomes, negotiation) as one string, `shape`.
 * The rest is the same for every run of an operation down the same path with the same Accept
 * header, so its string is made once and shared. JSON.stringify costs about 350 instructions per
 * value whatever its size, and those were some thirty values of a GET /books/1 snapshot: 9,000 of
 * its 74,000 instructions (callgrind, the encoding alone). The shape is written without quotes
 * (each one JSON escapes is dearer than a plain character): its parts joined by spaces, lists by
 * commas, null as nothing. A part that could not be told apart so (empty, holding a space or a
 * comma) makes the shape a JSON text of arrays instead, which begins with `[`. Neither form holds
 * an object, so no key of the app's reaches the text test of may-hold-secret.ts escaped.
 */
export interface PackedApiRecord {
  readonly shape: string;
  /**
   * The stages' starts, or the first one alone when each stage starts where the one before it
   * ended (the pipeline's clock makes it so: resources/pipeline.ts), which JSON writes as one
   * value instead of nine.
   */
  readonly startUs: readonly number[];
  readonly durationUs: readonly number[];
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
  // A comparison, not Math.max: below the optimising tier that is a builtin call, per stage.
  for (let i = 0; i < n; i++) {
    const start = e.startUs[i]! - base;
    startUs[i] = start > 0 ? start : 0;
  }
  const detail = e.detail;
  const stages = { names: e.names.slice(0, n), startUs, durationUs: e.durationUs.slice(0, n), outcomes: e.outcomes.slice(0, n) };
  // Two literals rather than a spread of one made for the purpose: this runs on every request.
  return typeof detail.provider === 'string'
    ? { resource: e.resource, operation: e.operation, stages, negotiation: null, provider: detail.provider, processor: String(detail.processor) }
    : { resource: e.resource, operation: e.operation, stages, negotiation: null };
}

/** Shapes made lately, newest last: an app has a few dozen operations, and a few Accept headers. */
const SHAPES = 32;
const shapes: { readonly api: ApiRecord; readonly negotiation: ApiRecord['negotiation']; readonly text: string }[] = [];

function sameShape(a: ApiRecord, an: ApiRecord['negotiation'], b: ApiRecord, bn: ApiRecord['negotiation']): boolean {
  if (a.resource !== b.resource || a.operation !== b.operation || a.provider !== b.provider || a.processor !== b.processor) return false;
  if (an !== bn && (an === null || bn === null || an.accept !== bn.accept || an.format !== bn.format || an.mediaType !== bn.mediaType || an.extension !== bn.extension)) return false;
  return sameStrings(a.stages.names, b.stages.names) && sameStrings(a.stages.outcomes, b.stages.outcomes);
}

/** A part the plain shape can carry: not empty, no space, no comma. */
const PLAIN_PART = /^[^ ,]+$/;

/**
 * The stages of a pipeline run to its end (resources/pipeline.ts), in order: most runs. Their names
 * are written `*` and their outcomes one letter each (`oossssso`), 10 characters where the lists
 * took 131 (JSON pays for every character of every snapshot). A run cut short (an error) lists
 * its stages as before; no stage is named `*`, so a shape read back tells the two apart.
 */
const FULL_RUN: readonly string[] = ['negotiate', 'provide', 'security', 'deserialize', 'post_denormalize', 'validate', 'process', 'serialize'];
const LETTER: Readonly<Record<Outcome, string>> = { ok: 'o', skipped: 's', error: 'e' };
const OUTCOME: Readonly<Record<string, Outcome>> = { o: 'ok', s: 'skipped', e: 'error' };

function stageParts(names: readonly string[], outcomes: readonly Outcome[]): [string, string] {
  if (sameStrings(names, FULL_RUN) && outcomes.every((o) => LETTER[o] !== undefined)) return ['*', outcomes.map((o) => LETTER[o]).join('')];
  return [names.join(','), outcomes.join(',')];
}

/** The shape's text (see PackedApiRecord); made only for a shape not met lately. */
function shapeText(api: ApiRecord, n: ApiRecord['negotiation']): string {
  const { names, outcomes } = api.stages;
  const parts: (string | null)[] = [api.resource, api.operation, api.provider ?? null, api.processor ?? null];
  const negotiation = n === null ? [] : [n.accept, n.format, n.mediaType, n.extension];
  const plain = !api.resource.startsWith('[') && [...parts, ...negotiation, ...names, ...outcomes].every((part) => part === null || PLAIN_PART.test(part));
  if (!plain) return JSON.stringify([...parts, names, outcomes, n === null ? null : negotiation]);
  return [...parts, ...stageParts(names, outcomes), ...negotiation].map((part) => part ?? '').join(' ');
}

/** The starts as sent: the first alone when the stages follow each other (see PackedApiRecord.startUs). */
function startsOf({ startUs, durationUs }: ApiRecord['stages']): readonly number[] {
  if (startUs.length < 2) return startUs;
  for (let i = 1; i < startUs.length; i++) if (startUs[i] !== startUs[i - 1]! + durationUs[i - 1]!) return startUs;
  return [startUs[0]!];
}

/** The record as a snapshot carries it, with the negotiation of the request (see PackedApiRecord). */
export function packApi(api: ApiRecord, negotiation: ApiRecord['negotiation']): PackedApiRecord {
  const { stages } = api;
  for (let i = shapes.length - 1; i >= 0; i--) {
    const known = shapes[i]!;
    if (sameShape(api, negotiation, known.api, known.negotiation)) return { shape: known.text, startUs: startsOf(stages), durationUs: stages.durationUs };
  }
  const text = shapeText(api, negotiation);
  if (shapes.length >= SHAPES) shapes.shift();
  shapes.push({ api, negotiation, text });
  return { shape: text, startUs: startsOf(stages), durationUs: stages.durationUs };
}

/** Every stage's start, from the first when only it was sent. */
function allStarts(startUs: readonly number[], durationUs: readonly number[]): readonly number[] {
  if (startUs.length !== 1 || durationUs.length < 2) return startUs;
  const all = [startUs[0]!];
  for (let i = 1; i < durationUs.length; i++) all.push(all[i - 1]! + durationUs[i - 1]!);
  return all;
}

type Outcome = ResourceStageEvent['outcome'];
type Shape = [string, string, string | null, string | null, string[], Outcome[], (string | null)[] | null];

function shapeOf(text: string): Shape {
  if (text.startsWith('[')) return JSON.parse(text) as Shape;
  const p = text.split(' ');
  const list = (part: string) => (part === '' ? [] : part.split(','));
  const orNull = (part: string | undefined) => (part === '' || part === undefined ? null : part);
  const [names, outcomes] = p[4] === '*' ? [[...FULL_RUN], [...p[5]!].map((letter) => OUTCOME[letter] ?? 'ok')] : [list(p[4]!), list(p[5]!) as Outcome[]];
  return [p[0]!, p[1]!, orNull(p[2]), orNull(p[3]), names, outcomes, p.length > 6 ? p.slice(6, 10).map(orNull) : null];
}

/** The record a snapshot carries, as collectors read it: packed (`packApi`) or, in older profiles, whole. */
export function unpackApi(api: ApiRecord | PackedApiRecord): ApiRecord {
  if (!('shape' in api)) return api;
  const [resource, operation, provider, processor, names, outcomes, n] = shapeOf(api.shape);
  return {
    resource,
    operation,
    stages: { names, startUs: allStarts(api.startUs, api.durationUs), durationUs: api.durationUs, outcomes },
    negotiation: n === null ? null : { accept: n[0]!, format: n[1]!, mediaType: n[2]!, extension: n[3]! },
    ...(provider === null ? {} : { provider, processor: processor! }),
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
