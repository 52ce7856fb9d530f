import type { ProfileSummary } from '../profile.ts';

/**
 * A profile as a store keeps it: the summary fields it indexes and searches, and the rest of the
 * profile as JSON text it never reads. What that text holds, a built profile or the snapshot it
 * is built from when first read, is `stored-profile.ts`'s business, not the store's: a store that
 * parsed it would pay for every profile recorded what only the few ever opened need.
 */
export interface ProfileRecord extends ProfileSummary {
  readonly data: string;
}
