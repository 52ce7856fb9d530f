/** Nesting past which a value is taken as too long (JSON.stringify would refuse a cycle anyway). */
const MAX_DEPTH = 64;

/**
 * Whether `JSON.stringify(value)` is surely longer than `limit` characters, found by counting
 * without building it: strings, keys and numbers by their length, each container's brackets and
 * separators. The count is a lower bound (escapes only lengthen the text), so "false" may still
 * mean a text a little over the limit; callers that keep short values encode them and check. It
 * stops as soon as the limit is passed, so a 900 KB body costs the walk to its first long field,
 * where `JSON.stringify` built (and threw away) the whole megabyte. Values with `toJSON` (a Date)
 * and anything nested past MAX_DEPTH count as long.
 */
export function jsonLongerThan(value: unknown, limit: number): boolean {
  let length = 0;
  const over = (n: number): boolean => (length += n) > limit;

  /** Counts a value JSON writes (not one it leaves out: see `omitted`); true once past the limit. */
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return over(v.length + 2);
    if (typeof v === 'number') return over(Number.isFinite(v) ? String(v).length : 4);
    if (typeof v === 'boolean') return over(v ? 4 : 5);
    // JSON.stringify throws on a BigInt: the caller names the value instead.
    if (typeof v === 'bigint') return over(limit + 1);
    if (v === null || typeof v !== 'object') return over(4);
    if (depth >= MAX_DEPTH) return over(limit + 1);
    // What toJSON returns is not known without calling it: counted as nothing (a lower bound).
    if (hasToJson(v)) return false;
    if (over(2)) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if ((i > 0 && over(1)) || walk(omitted(v[i]) ? null : v[i], depth + 1)) return true;
      return false;
    }
    let first = true;
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      const item = (v as Record<string, unknown>)[key];
      // A toJSON may return undefined, which leaves the key out too: neither is counted.
      if (omitted(item) || hasToJson(item)) continue;
      if (over(key.length + (first ? 3 : 4)) || walk(item, depth + 1)) return true;
      first = false;
    }
    return false;
  };

  return walk(value, 0);
}

/** Left out of an object by JSON.stringify (written as null in an array). */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function hasToJson(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function';
}
