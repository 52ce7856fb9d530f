/**
 * JSON Merge Patch (RFC 7396 §2): objects merge recursively, `null` removes a member, anything
 * else (arrays included) replaces. Returns a new value; neither input is modified.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

export const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json';
