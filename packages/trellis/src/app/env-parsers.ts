import { isIP } from 'node:net';

/** A configuration value that cannot be used; the message names the variable and the problem. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

export function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  if (!/^\d+$/.test(v.trim())) throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${v}"`);
  const n = Number(v.trim());
  if (n < min || n > max) throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got "${v}"`);
  return n;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const s = v.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off'].includes(s)) return false;
  throw new ConfigError(name, `expected 1 or 0 (true/false), got "${v}"`);
}

export function list(env: Env, name: string): string[] {
  const v = env[name];
  if (!v) return [];
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A comma-separated list of HTTP field names (RFC 9110 §5.1: tokens), or the fallback when unset.
 * `none` (or an empty value) is the empty list.
 */
export function headerNames(env: Env, name: string, fallback: readonly string[]): string[] {
  const v = env[name];
  if (v === undefined) return [...fallback];
  const trimmed = v.trim();
  if (trimmed === '' || trimmed.toLowerCase() === 'none') return [];
  const names = trimmed.split(',').map((s) => s.trim());
  for (const n of names) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(n)) throw new ConfigError(name, `expected header names separated by commas, got "${n}"`);
  }
  return names;
}

export function regex(name: string, source: string, anchored: boolean): RegExp {
  try {
    return new RegExp(anchored ? `^(?:${source})$` : source, 'i');
  } catch (e) {
    throw new ConfigError(name, `invalid regular expression "${source}" (${(e as Error).message})`);
  }
}

/**
 * A URL that parses, or a ConfigError. The value is not repeated: a database or Redis URL may
 * hold a password, and one that does not parse cannot be shown with it taken out.
 */
export function parsedUrl(name: string, value: string, example: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new ConfigError(name, `expected a URL such as ${example}, got one that does not parse (a space, a port over 65535, or a character of the password that must be percent-encoded)`);
  }
}

/** IPs or CIDR ranges (IPv4 or IPv6), validated so a typo cannot silently trust nobody or everybody. */
export function addresses(env: Env, name: string, fallback: readonly string[] = []): string[] {
  const items = env[name] === undefined ? [...fallback] : list(env, name);
  for (const item of items) {
    const [ip, bits, extra] = item.split('/');
    const family = isIP(ip ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const badBits = bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > maxBits);
    if (family === 0 || badBits || extra !== undefined) {
      throw new ConfigError(name, `"${item}" is not an IP address or CIDR range`);
    }
  }
  return items;
}

/** Durations like "90", "30s", "15m", "12h", "2d"; returns seconds. `why` says why less than `minSeconds` is refused. */
export function duration(env: Env, name: string, fallbackSeconds: number, minSeconds = 0, why = ''): number {
  const v = env[name];
  if (v === undefined || v === '') return fallbackSeconds;
  const m = /^(\d+)\s*([smhd]?)$/.exec(v.trim());
  if (!m) throw new ConfigError(name, `expected a duration such as 3600, 30m, 12h or 2d, got "${v}"`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  const seconds = Number(m[1]) * unit;
  if (seconds < minSeconds) throw new ConfigError(name, `expected a duration of at least ${minSeconds} s${why ? ` (${why})` : ''}, got "${v}"`);
  return seconds;
}

/** Byte sizes like "65536", "64k", "1m". */
export function bytes(env: Env, name: string, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const m = /^(\d+)\s*([kmg]?)i?b?$/i.exec(v.trim());
  if (!m) throw new ConfigError(name, `expected a size such as 65536, 64k or 1m, got "${v}"`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(m[1]) * unit;
}

/** A rate like "20/1m" (at most 20 per minute); "0" or "off" for none. */
export function rate(env: Env, name: string, fallback: string): { readonly max: number; readonly windowSeconds: number } | null {
  const v = (env[name] ?? '').trim() || fallback;
  if (v === '0' || v === 'off') return null;
  const m = /^(\d+)\s*\/\s*(\d+)\s*([smhd]?)$/.exec(v);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new ConfigError(name, `expected a rate such as 20/1m (at most 20 per minute), or off, got "${v}"`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[3] as '' | 's' | 'm' | 'h' | 'd'];
  return { max: Number(m[1]), windowSeconds: Number(m[2]) * unit };
}
