/**
 * Order statistics for benchmark figures. Percentiles use the nearest-rank method (the value at
 * rank ceil(p/100 · n)), so every figure reported is one that was actually observed.
 */

export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Nearest-rank percentile, p in [0, 100]; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  if (p < 0 || p > 100) throw new RangeError(`percentile must be within 0..100, got ${p}`);
  const s = sorted(values);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[rank - 1]!;
}

/** The middle value; the mean of the two middle values for an even count; NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = sorted(values);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** (max − min) / median: how far apart the rounds were, relative to the figure reported. */
  readonly relative: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, relative: Number.NaN };
  const s = sorted(values);
  const m = median(s);
  const min = s[0]!;
  const max = s[s.length - 1]!;
  return { median: m, min, max, relative: m === 0 ? 0 : (max - min) / m };
}
