import type { User } from './user.ts';
import type { Vote } from './vote.ts';

export type { Vote } from './vote.ts';

/**
 * Decides one attribute (a role, "IS_AUTHENTICATED", or an application verb such as "REVIEW_EDIT")
 * for a user and an optional subject (the object under access control).
 *
 * Contract:
 * - `name` is stable and unique among the app's voters (it labels profiler events).
 * - `vote` answers "abstain" for every attribute it does not understand, so voters compose.
 * - It never throws for an unknown attribute, a null user or any subject, and does not mutate them.
 * - The same input gives the same vote (no per-request state on `this`).
 */
export interface Voter {
  readonly name: string;
  vote(user: User | null, attribute: string, subject: unknown): Vote | Promise<Vote>;
}
