import type { RequestSnapshot } from './profiled-request.ts';

/** Stands in for a value even JSON cannot carry (a cycle: a stream, a socket). */
export const NOT_SERIALISABLE = '[not serialisable]';

/** What JSON keeps of a value: functions and symbols dropped, BigInts as text. */
function jsonSafe(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return NOT_SERIALISABLE;
  }
}

/**
 * A snapshot JSON is sure to encode. Only three parts hold values the app chose: the parsed body,
 * log record contexts (`log.info({ id: 10n })`) and the data of the app's collectors. They are
 * reduced to what JSON keeps of them (BigInts as text, a cycle noted), which is what a store keeps
 * anyway. Used only when a snapshot could not be encoded as it was.
 */
export function plainSnapshot(snapshot: RequestSnapshot): RequestSnapshot {
  return {
    ...snapshot,
    request: { ...snapshot.request, body: jsonSafe(snapshot.request.body) },
    logs: snapshot.logs.map((record) => ({ ...record, context: (jsonSafe(record.context) ?? {}) as Record<string, unknown> })),
    collected: (jsonSafe(snapshot.collected) ?? {}) as Record<string, unknown>,
  };
}
