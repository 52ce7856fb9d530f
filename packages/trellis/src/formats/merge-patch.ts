/** One object still to merge: the patch's members go onto `into` (a copy of the target's object). */
interface Pending {
  readonly into: Record<string, unknown>;
  readonly patch: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * JSON Merge Patch (RFC 7396 §2): objects merge recursively, `null` removes a member, anything
 * else (arrays included) replaces. Returns a new value; neither input is modified. Iterative, with
 * an explicit stack: however deep a patch nests, it cannot exhaust the call stack (bodies are
 * depth-limited when parsed too, JSON_MAX_DEPTH).
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const root: Record<string, unknown> = isObject(target) ? { ...target } : {};
  const stack: Pending[] = [{ into: root, patch }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { into, patch: members } = next;
    for (const [key, value] of Object.entries(members)) {
      if (value === null) delete into[key];
      else if (!isObject(value)) into[key] = value;
      else {
        const current = into[key];
        const merged: Record<string, unknown> = isObject(current) ? { ...current } : {};
        into[key] = merged;
        stack.push({ into: merged, patch: value });
      }
    }
  }
  return root;
}

export const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json';
