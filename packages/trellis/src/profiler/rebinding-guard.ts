import { hostnameOf } from '../kernel/request-guards.ts';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * Whether the Host a request names can only be this machine as the client reached it, not a name
 * an attacker's DNS points at 127.0.0.1 (DNS rebinding: a page of evil.example re-resolves its own
 * name to the loopback address, and the browser then lets that page read what it fetches from
 * the profiler, whose gate sees a loopback client). An IP literal is safe (the page's origin is
 * that address), and so is `localhost` and any `*.localhost` (RFC 6761 §6.3: always loopback,
 * never sent to DNS by browsers). With TRUSTED_HOSTS set, the guard phase has already refused every
 * other name, so any Host that got this far is one the operator listed.
 *
 * Vite's `server.allowedHosts` (CVE-2025-24010) and webpack-dev-server's `allowedHosts` close the
 * same hole the same way.
 */
export function rebindingGuard(trustedHostsSet: boolean): (host: string | undefined) => boolean {
  if (trustedHostsSet) return () => true;
  return (host) => {
    if (!host) return false;
    const name = hostnameOf(host).replace(/\.$/, '');
    return IPV4.test(name) || name.startsWith('[') || name === 'localhost' || name.endsWith('.localhost');
  };
}
