/**
 * Which requests become profiles (PROFILER_SAMPLE, PROFILER_ONLY), decided when the response is
 * about to be sent, so a request not kept carries no X-Debug-Token that would lead nowhere.
 * Modes after Clockwork's and MiniProfiler's for staging: everything (the default), a sample,
 * only failures, only slow requests. Failures and slow requests are always kept when sampling.
 */
export interface KeepPolicy {
  keeps(statusCode: number, durationMs: number): boolean;
}

export interface KeepSettings {
  /** The share of requests kept, 0–1 (1: all). */
  readonly sample: number;
  /** Keep only these: failures (status ≥ 400) and/or requests slower than `slowMs`; null: no filter. */
  readonly only: { readonly errors: boolean; readonly slowMs: number | null } | null;
}

/** Slower than this is "slow" for sampling when PROFILER_ONLY names no threshold. */
export const DEFAULT_SLOW_MS = 1000;

export const KEEP_ALL: KeepPolicy = { keeps: () => true };

export function keepPolicy(settings: KeepSettings, random: () => number = Math.random): KeepPolicy {
  const { sample, only } = settings;
  if (only === null && sample >= 1) return KEEP_ALL;
  const slowMs = only?.slowMs ?? DEFAULT_SLOW_MS;
  return {
    keeps(statusCode, durationMs) {
      const failed = statusCode >= 400;
      const slow = durationMs >= slowMs;
      if (only !== null && !((only.errors && failed) || (only.slowMs !== null && slow))) return false;
      return failed || slow || sample >= 1 || random() < sample;
    },
  };
}

/** `errors`, `slow:<ms>`, or both comma-separated; throws a message for anything else. */
export function parseOnly(value: string): KeepSettings['only'] {
  if (value.trim() === '') return null;
  let errors = false;
  let slowMs: number | null = null;
  for (const part of value.split(',').map((p) => p.trim())) {
    const slow = /^slow:(\d+)$/.exec(part);
    if (part === 'errors') errors = true;
    else if (slow) slowMs = Number(slow[1]);
    else throw new Error(`expected errors, slow:<ms> or both (errors,slow:500), got "${value}"`);
  }
  return { errors, slowMs };
}
