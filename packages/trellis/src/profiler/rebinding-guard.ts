import { hostnameOf, isTrustedHost } from '../kernel/request-guards.ts';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Whether the Host a request names can only be this machine as the client reached it, not a name
 * an attacker's DNS points at 127.0.0.1 (DNS rebinding: a page of evil.example re-resolves its own
 * name to the loopback address, and the browser then lets that page read what it fetches from
 * the profiler, whose gate sees a loopback client). An IP literal is safe (the page's origin is
 * that address), and so is `localhost` and any `*.localhost` (RFC 6761 §6.3: always loopback,
 * never sent to DNS by browsers), and any name TRUSTED_HOSTS lists (the operator's own). The
 * profiler asks this of every name a request carries (its Host and, from a trusted proxy,
 * X-Forwarded-Host), since a rebound page can set either.
 *
 * Vite's `server.allowedHosts` (CVE-2025-24010) and webpack-dev-server's `allowedHosts` close the
 * same hole the same way.
 */
export function rebindingGuard(trustedHosts: readonly RegExp[]): (host: string | undefined) => boolean {
  return (host) => {
    if (!host) return false;
    const name = hostnameOf(host).replace(/\.$/, '');
    return IPV4.test(name) || name.startsWith('[') || name === 'localhost' || name.endsWith('.localhost') || isTrustedHost(trustedHosts, host);
  };
}
