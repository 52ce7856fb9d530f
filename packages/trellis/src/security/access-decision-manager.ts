import type { FastifyRequest } from 'fastify';
import { publish } from '../observe/channels.ts';
import { AuthenticatedVoter } from './authenticated-voter.ts';
import { RoleHierarchy } from './role-hierarchy.ts';
import { RoleVoter } from './role-voter.ts';
import type { User } from './user.ts';
import type { Vote, Voter } from './voter.ts';

/**
 * How votes combine. affirmative: one grant is enough; consensus: more grants than denies;
 * unanimous: at least one grant and no deny. When every voter abstains, access is denied.
 */
export type DecisionStrategy = 'affirmative' | 'consensus' | 'unanimous';

/** Asks every voter about one attribute and combines the votes; each vote is published. */
export class AccessDecisionManager {
  readonly #voters: readonly Voter[];
  readonly #strategy: DecisionStrategy;
  readonly #hierarchy: RoleHierarchy;

  constructor(voters: readonly Voter[], strategy: DecisionStrategy = 'affirmative', hierarchy: RoleHierarchy = new RoleHierarchy()) {
    this.#voters = voters;
    this.#strategy = strategy;
    this.#hierarchy = hierarchy;
  }

  /** The roles `roles` grant through the hierarchy, themselves included (for the profiler). */
  reachableRoles(roles: readonly string[]): string[] {
    return this.#hierarchy.reachableRoles(roles);
  }

  /** Role voter over the given hierarchy, the authenticated voter, then the app's own voters. */
  static withDefaults(options: { hierarchy?: RoleHierarchy; voters?: readonly Voter[]; strategy?: DecisionStrategy } = {}): AccessDecisionManager {
    const hierarchy = options.hierarchy ?? new RoleHierarchy();
    return new AccessDecisionManager([new RoleVoter(hierarchy), new AuthenticatedVoter(), ...(options.voters ?? [])], options.strategy, hierarchy);
  }

  async decide(user: User | null, attribute: string, subject: unknown, request: FastifyRequest | null = null): Promise<boolean> {
    let grants = 0;
    let denies = 0;
    for (const voter of this.#voters) {
      const vote: Vote = await voter.vote(user, attribute, subject);
      publish('vote', () => ({ request, voter: voter.name, attribute, subject, vote, strategy: this.#strategy }));
      if (vote === 'grant') {
        grants++;
        if (this.#strategy === 'affirmative') return true;
      } else if (vote === 'deny') {
        denies++;
        if (this.#strategy === 'unanimous') return false;
      }
    }
    if (this.#strategy === 'consensus') return grants > denies;
    return grants > 0 && denies === 0;
  }
}
