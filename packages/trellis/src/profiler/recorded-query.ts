import type { DbQueryEvent } from '../observe/channels.ts';
import type { QueryRecord } from './profiled-request.ts';
import { ownString } from '../logging/cut-string.ts';

/**
 * A parameter longer than this (characters of a string, bytes of a binary value) is kept as its
 * beginning and its length. A profile shows which value a query was given, not a copy of the
 * upload it stored: a 900 KB text written by an INSERT once crossed to the profiler thread whole,
 * in every profile, and was most of the process's memory under a load of large writes.
 */
export const MAX_PARAMETER_CHARS = 1024;
/** A statement longer than this (a bulk insert with values inline) is kept as its beginning. */
export const MAX_SQL_CHARS = 32 * 1024;

/** A parameter kept as its beginning (`text`) and its whole length (`length`, characters). */
export interface CutParameter {
  readonly cut: string;
  readonly length: number;
}

/** A binary parameter (a Buffer, a typed array): its size only. */
export interface BinaryParameter {
  readonly binary: number;
}

export function isCutParameter(value: unknown): value is CutParameter {
  return typeof value === 'object' && value !== null && typeof (value as CutParameter).cut === 'string' && typeof (value as CutParameter).length === 'number';
}

/** The first MAX_PARAMETER_CHARS of a long text, as a string of its own (a slice keeps the whole text alive). */
function beginningOf(text: string): string {
  return ownString(text.slice(0, MAX_PARAMETER_CHARS));
}

function bounded(value: unknown): unknown {
  if (typeof value === 'string') return value.length <= MAX_PARAMETER_CHARS ? value : ({ cut: beginningOf(value), length: value.length } satisfies CutParameter);
  if (ArrayBuffer.isView(value)) return { binary: value.byteLength } satisfies BinaryParameter;
  if (value instanceof ArrayBuffer) return { binary: value.byteLength } satisfies BinaryParameter;
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  // A JSON(B) parameter (pg): kept whole when short, else as the beginning of its JSON text.
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return String(value);
  }
  if (text === undefined || text.length <= MAX_PARAMETER_CHARS) return value;
  return { cut: beginningOf(text), length: text.length } satisfies CutParameter;
}

/**
 * A query as the profile keeps it, bounded on the request thread: the parameters and the
 * statement are what the snapshot carries across to the profiler thread, so they are cut here.
 * Secrets in what is kept are scrubbed there (db-collector.ts), including a secret cut in two.
 */
export function recordedQuery(event: DbQueryEvent, atMs: number): QueryRecord {
  const { parameters, sql } = event;
  let kept: readonly unknown[] = parameters;
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    if (typeof p === 'object' && p !== null ? !(p instanceof Date) : typeof p === 'string' && p.length > MAX_PARAMETER_CHARS) {
      kept = parameters.map(bounded);
      break;
    }
  }
  const record: { -readonly [K in keyof QueryRecord]: QueryRecord[K] } = {
    sql: sql.length <= MAX_SQL_CHARS ? sql : sql.slice(0, MAX_SQL_CHARS),
    parameters: kept,
    // Microseconds are plenty, and 0.04291700000000048 costs 19 characters in every snapshot.
    durationMs: Math.round(event.durationMs * 1000) / 1000,
    atMs: Math.round(atMs * 1000) / 1000,
    error: event.error ?? null,
  };
  // Set when there, not spread from an object made for it: this runs for every query.
  if (event.rows !== undefined) record.rows = event.rows;
  if (event.foreign) record.foreign = true;
  return record;
}
