/** Which roles each role includes, e.g. `{ ROLE_ADMIN: ['ROLE_USER'] }`. */
export type RoleHierarchyMap = Readonly<Record<string, readonly string[]>>;

export const DEFAULT_ROLE_HIERARCHY: RoleHierarchyMap = { ROLE_ADMIN: ['ROLE_USER'] };

/** Expands granted roles to every role they reach, transitively; cycles are harmless. */
export class RoleHierarchy {
  readonly #map: RoleHierarchyMap;

  constructor(map: RoleHierarchyMap = DEFAULT_ROLE_HIERARCHY) {
    this.#map = map;
  }

  reachableRoles(roles: readonly string[]): string[] {
    const seen = new Set<string>();
    const stack = [...roles];
    while (stack.length > 0) {
      const role = stack.pop()!;
      if (seen.has(role)) continue;
      seen.add(role);
      stack.push(...(this.#map[role] ?? []));
    }
    return [...seen];
  }
}
