import { RoleHierarchy } from './role-hierarchy.ts';
import type { User } from './user.ts';
import type { Vote, Voter } from './voter.ts';

/** Decides `ROLE_*` attributes from the user's roles, expanded through the role hierarchy. */
export class RoleVoter implements Voter {
  readonly name = 'role';
  readonly #hierarchy: RoleHierarchy;

  constructor(hierarchy: RoleHierarchy = new RoleHierarchy()) {
    this.#hierarchy = hierarchy;
  }

  vote(user: User | null, attribute: string): Vote {
    if (!attribute.startsWith('ROLE_')) return 'abstain';
    if (user === null) return 'deny';
    return this.#hierarchy.reachableRoles(user.roles).includes(attribute) ? 'grant' : 'deny';
  }
}
