import type { DbData } from '../panels/db/db-collector.ts';
import type { RequestData } from '../panels/request/request-collector.ts';
import type { ResponseData } from '../panels/response/response-collector.ts';
import type { TimeData } from '../panels/time/time-collector.ts';
import { toSummary, type Profile, type ProfileSummary } from '../profile.ts';
import { dataOf } from '../ui/panels/panel.ts';

/** Two numbers side by side; a side is null when its profile did not record it. */
export interface Pair {
  readonly a: number | null;
  readonly b: number | null;
  /** b − a, or null when a side is missing. */
  readonly delta: number | null;
}

export interface PhaseDiff extends Pair {
  readonly name: string;
}

/** Every run of one statement shape in a profile: how many, how long in all. */
export interface ShapeRuns {
  readonly count: number;
  readonly durationMs: number;
}

export interface ShapeDiff {
  /** The statement with its literals and placeholder lists folded (`statementShape`). */
  readonly shape: string;
  readonly change: 'added' | 'removed' | 'changed' | 'same';
  readonly a: ShapeRuns | null;
  readonly b: ShapeRuns | null;
  readonly deltaMs: number;
}

export interface HeaderDiff {
  readonly added: readonly { readonly name: string; readonly value: string }[];
  readonly removed: readonly { readonly name: string; readonly value: string }[];
  readonly changed: readonly { readonly name: string; readonly a: string; readonly b: string }[];
}

export interface ProfileComparison {
  readonly a: ProfileSummary;
  readonly b: ProfileSummary;
  readonly status: { readonly a: number; readonly b: number; readonly changed: boolean };
  readonly durationMs: Pair;
  readonly phases: readonly PhaseDiff[];
  readonly queries: {
    readonly count: Pair;
    readonly durationMs: Pair;
    readonly added: number;
    readonly removed: number;
    readonly changed: number;
    /** Every shape of either side, the largest change in time first. */
    readonly shapes: readonly ShapeDiff[];
  };
  readonly headers: { readonly request: HeaderDiff; readonly response: HeaderDiff };
  /** Bytes of the response body as sent. */
  readonly responseBytes: Pair;
  /** Bytes of the request body as received. */
  readonly requestBytes: Pair;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const pair = (a: number | null, b: number | null): Pair => ({ a, b, delta: a === null || b === null ? null : round(b - a) });

/**
 * A statement's shape: the same query with other values. Literals become `?`, numbered
 * placeholders (`$1`) too, and a list of them (`IN (?, ?, ?)`) one `?…`, so a page of 10 and a
 * page of 20 ids match, and case and spacing do not count.
 */
export function statementShape(sql: string): string {
  return sql
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\$\d+/g, '?')
    .replace(/\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/\s+/g, ' ')
    .replace(/\(\s*\?(?:\s*,\s*\?)+\s*\)/g, '(?…)')
    .trim()
    .toLowerCase();
}

function shapesOf(db: DbData | null): Map<string, ShapeRuns> {
  const shapes = new Map<string, { count: number; durationMs: number }>();
  for (const query of db?.queries ?? []) {
    const shape = statementShape(query.sql);
    const runs = shapes.get(shape) ?? { count: 0, durationMs: 0 };
    runs.count += 1;
    runs.durationMs = round(runs.durationMs + (Number.isFinite(query.durationMs) ? query.durationMs : 0));
    shapes.set(shape, runs);
  }
  return shapes;
}

/**
 * A shape in both is changed when it ran a different number of times, or took over twice as long
 * and a millisecond more: jitter of a fast query is not a finding, a query turned slow is.
 */
function shapeChange(a: ShapeRuns, b: ShapeRuns): 'changed' | 'same' {
  if (a.count !== b.count) return 'changed';
  const [lo, hi] = a.durationMs < b.durationMs ? [a.durationMs, b.durationMs] : [b.durationMs, a.durationMs];
  return hi > 2 * lo && hi - lo >= 1 ? 'changed' : 'same';
}

function compareQueries(a: DbData | null, b: DbData | null): ProfileComparison['queries'] {
  const left = shapesOf(a);
  const right = shapesOf(b);
  const shapes: ShapeDiff[] = [];
  for (const shape of new Set([...left.keys(), ...right.keys()])) {
    const l = left.get(shape) ?? null;
    const r = right.get(shape) ?? null;
    const change = l === null ? 'added' : r === null ? 'removed' : shapeChange(l, r);
    shapes.push({ shape, change, a: l, b: r, deltaMs: round((r?.durationMs ?? 0) - (l?.durationMs ?? 0)) });
  }
  shapes.sort((x, y) => Math.abs(y.deltaMs) - Math.abs(x.deltaMs) || x.shape.localeCompare(y.shape));
  const count = (c: ShapeDiff['change']) => shapes.filter((s) => s.change === c).length;
  return {
    count: pair(a ? a.queries.length : null, b ? b.queries.length : null),
    durationMs: pair(a ? a.durationMs : null, b ? b.durationMs : null),
    added: count('added'),
    removed: count('removed'),
    changed: count('changed'),
    shapes,
  };
}

/**
 * Headers that differ between any two requests and say nothing the comparison does not: the
 * profile's own token and link, and Server-Timing (the phases, compared above).
 */
const SELF_DESCRIBING = new Set(['x-debug-token', 'x-debug-token-link', 'server-timing']);

const headerText = (value: unknown): string => (Array.isArray(value) ? value.map(String).join(', ') : String(value));

/** Header names compared case-blind (they are stored lower-cased; an older profile may not be). */
function compareHeaders(a: Readonly<Record<string, unknown>> | undefined, b: Readonly<Record<string, unknown>> | undefined): HeaderDiff {
  const lower = (h: Readonly<Record<string, unknown>> | undefined) =>
    new Map(Object.entries(h ?? {}).filter(([k, v]) => v !== undefined && !SELF_DESCRIBING.has(k.toLowerCase())).map(([k, v]) => [k.toLowerCase(), headerText(v)]));
  const left = lower(a);
  const right = lower(b);
  const added: { name: string; value: string }[] = [];
  const removed: { name: string; value: string }[] = [];
  const changed: { name: string; a: string; b: string }[] = [];
  for (const [name, value] of left) {
    if (!right.has(name)) removed.push({ name, value });
    else if (right.get(name) !== value) changed.push({ name, a: value, b: right.get(name)! });
  }
  for (const [name, value] of right) if (!left.has(name)) added.push({ name, value });
  const byName = (x: { name: string }, y: { name: string }) => x.name.localeCompare(y.name);
  return { added: added.sort(byName), removed: removed.sort(byName), changed: changed.sort(byName) };
}

/**
 * Phases in the order they ran: a's, with a phase only b had placed after the one b ran before it
 * (a failed request's `error` where it happened, a body's `parse` before the handler).
 */
function comparePhases(a: TimeData | null, b: TimeData | null): PhaseDiff[] {
  const total = (t: TimeData | null) => {
    const m = new Map<string, number>();
    for (const p of t?.phases ?? []) m.set(p.name, round((m.get(p.name) ?? 0) + p.durationMs));
    return m;
  };
  const left = total(a);
  const right = total(b);
  const position = new Map([...left.keys()].map((name, i) => [name, i]));
  let after = -1;
  let step = 0;
  for (const name of right.keys()) {
    const known = position.get(name);
    if (known !== undefined) [after, step] = [known, 0];
    else position.set(name, after + (step += 1) / (right.size + 1));
  }
  return [...position.keys()].sort((x, y) => position.get(x)! - position.get(y)!).map((name) => ({ name, ...pair(left.get(name) ?? null, right.get(name) ?? null) }));
}

/**
 * What differs between two stored profiles, as data (the compare page, its JSON twin, the CLI and
 * the MCP server all show this): the usual "why is this one slower". Reads only what was stored,
 * so it holds nothing that redaction removed; it copes with a collector missing on either side.
 */
export function compareProfiles(a: Profile, b: Profile): ProfileComparison {
  const db = (p: Profile) => dataOf<DbData>(p, 'db');
  const request = (p: Profile) => dataOf<RequestData>(p, 'request');
  const response = (p: Profile) => dataOf<ResponseData>(p, 'response');
  const size = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : null);
  return {
    a: toSummary(a),
    b: toSummary(b),
    status: { a: a.statusCode, b: b.statusCode, changed: a.statusCode !== b.statusCode },
    durationMs: pair(a.durationMs, b.durationMs),
    phases: comparePhases(dataOf<TimeData>(a, 'time'), dataOf<TimeData>(b, 'time')),
    queries: compareQueries(db(a), db(b)),
    headers: {
      request: compareHeaders(request(a)?.headers, request(b)?.headers),
      response: compareHeaders(response(a)?.headers, response(b)?.headers),
    },
    responseBytes: pair(size(response(a)?.size), size(response(b)?.size)),
    requestBytes: pair(size(request(a)?.body?.size), size(request(b)?.body?.size)),
  };
}
