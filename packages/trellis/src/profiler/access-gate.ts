import { ipMatcher, isLoopback } from '../http/ip-matcher.ts';

/**
 * Who may open the profiler: loopback clients always, others only when `PROFILER_ALLOW` lists
 * their address or network. Everyone else gets the ordinary 404, so the profiler's existence is
 * not disclosed.
 */
export function accessGate(allow: readonly string[]): (clientIp: string) => boolean {
  const allowed = ipMatcher(allow);
  return (ip) => isLoopback(ip) || allowed(ip);
}
