import { Session } from 'node:inspector';
import type { CpuProfile } from './cpu-profile.ts';

/**
 * The request header that asks for a CPU profile: `X-Trellis-Profile-CPU: 1`. Honoured only for
 * clients the profiler's gate allows (profile-recorder.ts), only in debug (there is no profiler
 * otherwise); from anyone else it is an ordinary header.
 */
export const CPU_PROFILE_HEADER = 'x-trellis-profile-cpu';
/** V8's sampling interval: 100 µs gives a 10 ms request a hundred samples (V8's default is 1 ms). */
export const CPU_SAMPLING_INTERVAL_US = 100;
/** A sampled request never answered (a client gone before onResponse) stops being sampled after this. */
const MAX_SAMPLING_MS = 30_000;

interface Sampling {
  readonly owner: object;
  readonly session: Session;
  readonly timer: NodeJS.Timeout;
}

/** The one sampling of this process (the V8 profiler samples the whole thread, not a request). */
let active: Sampling | null = null;

/** Whether a request's headers ask for a CPU profile. */
export function asksForCpuProfile(headers: Readonly<Record<string, unknown>>): boolean {
  return headers[CPU_PROFILE_HEADER] === '1';
}

/**
 * Starts sampling this thread's CPU for `owner` (a request's profile) with `node:inspector`,
 * unless a sampling is already running in the process: then false, and the request is simply not
 * sampled. Never in production, whatever calls it.
 */
export function startCpuSampling(owner: object): boolean {
  if (active !== null || process.env.NODE_ENV === 'production') return false;
  let session: Session | null = null;
  try {
    session = new Session();
    session.connect();
    // The same-thread session answers synchronously (its callbacks run before post returns).
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval: CPU_SAMPLING_INTERVAL_US });
    session.post('Profiler.start');
  } catch {
    // No inspector in this build of Node, or V8 refused: the request runs unsampled.
    session?.disconnect();
    return false;
  }
  const timer = setTimeout(() => stopCpuSampling(owner), MAX_SAMPLING_MS);
  timer.unref();
  active = { owner, session, timer };
  return true;
}

/** Stops the sampling of `owner` and returns its profile; null when `owner` is not being sampled. */
export function stopCpuSampling(owner: object): CpuProfile | null {
  if (active === null || active.owner !== owner) return null;
  const { session, timer } = active;
  active = null;
  clearTimeout(timer);
  let profile: CpuProfile | null = null;
  try {
    session.post('Profiler.stop', (error, result) => {
      if (!error) profile = result.profile as CpuProfile;
    });
    session.post('Profiler.disable');
  } finally {
    session.disconnect();
  }
  return profile;
}

/** Whether a sampling is running in this process (tests). */
export function cpuSamplingActive(): boolean {
  return active !== null;
}
