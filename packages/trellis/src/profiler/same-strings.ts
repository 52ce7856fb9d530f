/**
 * Whether two lists hold the same strings in the same order: the key of the profiler's small
 * caches of recent sequences (phase names: packed-marks.ts, server-timing.ts; stage names and
 * outcomes: api-record.ts), compared in a loop because it runs on every profiled request.
 */
export function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
