/**
 * The beginning of `JSON.stringify(value, null, 2)`: at least `maxChars` characters of it (all of
 * it when shorter), built without building the rest. A profile keeps the first PROFILER_MAX_BODY
 * bytes of a large body; encoding a 900 KB upload whole to keep 64 KB of it cost the request
 * thread a megabyte of garbage per request (large-body.ts). Values are parsed JSON (no toJSON,
 * no cycles) nested no deeper than redaction leaves them.
 */
export function boundedJson(value: unknown, maxChars: number): string {
  const out: string[] = [];
  let length = 0;
  const push = (part: string): boolean => {
    out.push(part);
    length += part.length;
    return length < maxChars;
  };

  // Returns false once enough is written: every caller stops there.
  const write = (v: unknown, indent: string): boolean => {
    if (typeof v === 'string') {
      const room = maxChars - length;
      // Cut, it has no closing quote: what is written stays a prefix of the whole.
      return v.length <= room ? push(JSON.stringify(v)) : push(JSON.stringify(v.slice(0, Math.max(0, room))).slice(0, -1)) && false;
    }
    if (v === null || typeof v !== 'object') return push(JSON.stringify(v) ?? 'null');
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return push('[]');
      if (!push('[')) return false;
      for (let i = 0; i < v.length; i++) {
        if (!push(`${i > 0 ? ',' : ''}\n${inner}`)) return false;
        const item = v[i];
        if (!write(item === undefined || typeof item === 'function' ? null : item, inner)) return false;
      }
      return push(`\n${indent}]`);
    }
    let first = true;
    for (const key of Object.keys(v)) {
      const item = (v as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function') continue;
      if (!push(`${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `)) return false;
      first = false;
      if (!write(item, inner)) return false;
    }
    return push(first ? '{}' : `\n${indent}}`);
  };

  write(value, '');
  return out.join('');
}
