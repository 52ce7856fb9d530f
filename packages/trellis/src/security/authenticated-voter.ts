import type { User } from './user.ts';
import type { Vote, Voter } from './voter.ts';

/**
 * Decides the authentication-state attributes: `PUBLIC_ACCESS` (anyone), `IS_AUTHENTICATED` and
 * `IS_AUTHENTICATED_FULLY` (any authenticated user; Trellis has no remember-me, so they agree),
 * `IS_ANONYMOUS` (only requests without credentials).
 */
export class AuthenticatedVoter implements Voter {
  readonly name = 'authenticated';

  vote(user: User | null, attribute: string): Vote {
    switch (attribute) {
      case 'PUBLIC_ACCESS':
        return 'grant';
      case 'IS_AUTHENTICATED':
      case 'IS_AUTHENTICATED_FULLY':
        return user === null ? 'deny' : 'grant';
      case 'IS_ANONYMOUS':
        return user === null ? 'grant' : 'deny';
      default:
        return 'abstain';
    }
  }
}
