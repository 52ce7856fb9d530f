import { cutString } from './cut-string.ts';

/**
 * Replaces the values of secret-looking keys with "[redacted]", deeply, without mutating the input.
 * Used before anything request-derived is logged, kept or stored (logs, debug pages, profiles).
 */
export const REDACTED = '[redacted]';

/** Key fragments that mark a value as secret; matched case-insensitively anywhere in the key. */
export const DEFAULT_SECRET_KEYS: readonly string[] = [
  'authorization',
  'cookie',
  'password',
  'passwd',
  'secret',
  'token',
  'api_key',
  'api-key',
  'apikey',
  'private_key',
  'private-key',
  'privatekey',
  'pwd',
  'cvv',
  'credential',
  'session',
];

const matchers = new WeakMap<readonly string[], (key: string) => boolean>();

/** Whether a key contains one of the fragments, case-insensitively; one matcher per key list. */
export function secretKeyMatcher(keys: readonly string[] = DEFAULT_SECRET_KEYS): (key: string) => boolean {
  let matcher = matchers.get(keys);
  if (!matcher) {
    const normalized = keys.map((k) => k.toLowerCase());
    matcher = (key) => {
      const k = key.toLowerCase();
      return normalized.some((fragment) => k.includes(fragment));
    };
    matchers.set(keys, matcher);
  }
  return matcher;
}

const defaultMatcher = secretKeyMatcher();

/** Past this depth a subtree is replaced whole: what is not looked into cannot be kept. */
const MAX_DEPTH = 32;

/**
 * `maxChars`: strings inside `value` longer than this are kept as their beginning and a note
 * (cut-string.ts), in the same walk; the default keeps them whole.
 */
export function redactSecrets<T>(value: T, isSecret: (key: string) => boolean = defaultMatcher, depth = 0, maxChars = Infinity): T {
  if (typeof value === 'string') return (value.length > maxChars ? cutString(value, maxChars) : value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return REDACTED as T;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, isSecret, depth + 1, maxChars)) as T;
  if (Buffer.isBuffer(value) || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecret(k) && v !== undefined && v !== null && v !== '' ? REDACTED : redactSecrets(v, isSecret, depth + 1, maxChars);
  }
  return out as T;
}
