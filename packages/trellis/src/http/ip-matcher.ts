import { BlockList, isIP } from 'node:net';

/** Client address in IPv4 form where it has one: IPv4-mapped IPv6 and ::1 become dotted quads. */
export function toIpv4Form(address: string): string {
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (address === '::1') return '127.0.0.1';
  return address;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Whether an address is loopback (127.0.0.0/8, ::1, and their v4-mapped forms), compared as an
 * address: `127.evil.example` or `127.0.0.1:80` are not addresses, so not loopback.
 */
export function isLoopback(address: string): boolean {
  const a = toIpv4Form(address);
  const family = isIP(a);
  return family !== 0 && LOOPBACK.check(a, family === 6 ? 'ipv6' : 'ipv4');
}

/** Matches addresses against a list of IPs and CIDR ranges (validated by the config loader). */
export function ipMatcher(entries: readonly string[]): (address: string) => boolean {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [ip, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(ip, family);
    else list.addSubnet(ip, Number(bits), family);
  }
  return (address) => {
    const a = toIpv4Form(address);
    const family = isIP(a);
    if (family === 0) return false;
    return list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  };
}
