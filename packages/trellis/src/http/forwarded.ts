import { isIP } from 'node:net';

/**
 * A forwarded node as an address, or null when it is not one: IPv4 and IPv6 literals (IPv6 may
 * be v4-mapped); in Forwarded (RFC 7239 §6) an IPv6 node is bracketed and either may carry a port
 * (`"[2001:db8::1]:4711"`, `"192.0.2.1:80"`). "unknown" and obfuscated identifiers (`_hidden`)
 * are not addresses: nothing can be decided on them.
 */
export function forwardedNode(value: string, withPort: boolean): string | null {
  let node = value.trim();
  // A zone index (`fe80::1%eth0`) names an interface of the proxy's, not a client.
  if (node.includes('%')) return null;
  if (withPort) {
    if (node.startsWith('"') && node.endsWith('"') && node.length >= 2) node = node.slice(1, -1);
    if (node.startsWith('[')) {
      const end = node.indexOf(']');
      if (end < 0 || (end + 1 < node.length && !/^:\d{1,5}$/.test(node.slice(end + 1)))) return null;
      node = node.slice(1, end);
      return isIP(node) === 6 ? node : null;
    }
    const port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(node);
    if (port) node = port[1]!;
    return isIP(node) === 4 ? node : null;
  }
  // X-Forwarded-For has no port and no brackets: a bare IPv4 or IPv6 literal.
  return isIP(node) === 0 ? null : node;
}

/** Why a forwarded header could not be read: its name and the value that is not an address. */
export class ForwardedAddressError extends Error {
  readonly header: string;
  readonly value: string;

  constructor(header: string, value: string) {
    super(`${header} names a client that is not an IP address: ${value}`);
    this.header = header;
    this.value = value;
  }
}

/**
 * The `for` parameters of a Forwarded header (RFC 7239 §4), in order, as addresses; throws
 * ForwardedAddressError for a node that is not an IP literal. A header with no `for` (only
 * `proto`, `host`) names no client: [].
 */
export function forwardedFor(header: string): string[] {
  const out: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== 'for') continue;
      const raw = pair.slice(eq + 1);
      const node = forwardedNode(raw, true);
      if (node === null) throw new ForwardedAddressError('Forwarded', raw.trim());
      out.push(node);
    }
  }
  return out;
}

/**
 * Client addresses listed by X-Forwarded-For, in order; throws for an entry that is not an IP
 * literal, and for a header with none (an empty value must not fall back to the proxy's own
 * address). Empty list elements are ignored, as RFC 9110 §5.6.1 asks of recipients.
 */
export function xForwardedFor(header: string): string[] {
  const entries = header.split(',').filter((entry) => entry.trim() !== '');
  if (entries.length === 0) throw new ForwardedAddressError('X-Forwarded-For', header.trim());
  return entries.map((entry) => {
    const node = forwardedNode(entry, false);
    if (node === null) throw new ForwardedAddressError('X-Forwarded-For', entry.trim());
    return node;
  });
}
