import type { DataCollector } from '../../data-collector.ts';
import type { SecurityRecord } from '../../security-record.ts';

type Authentication = Extract<SecurityRecord, { kind: 'authentication' }>;
type Vote = Extract<SecurityRecord, { kind: 'vote' }>;
type Decision = Extract<SecurityRecord, { kind: 'decision' }>;

export interface SecurityData {
  /** The user the request ran as, or null (anonymous). */
  readonly user: { readonly identifier: string; readonly roles: readonly string[]; readonly reachableRoles: readonly string[] } | null;
  /** Every authenticator asked, in order, with its outcome ("failure" carries the reason, never the credential). */
  readonly authenticators: readonly { readonly name: string; readonly outcome: Authentication['outcome']; readonly reason: string | null; readonly atMs: number }[];
  /** Every access decision (path rules, `security`, `securityPostDenormalize`) with the votes cast for it. */
  readonly decisions: readonly (Omit<Decision, 'kind'> & { readonly votes: readonly Omit<Vote, 'kind' | 'atMs' | 'strategy'>[] })[];
  /** Votes cast outside any rule (an `isGranted` of the app's own code). */
  readonly otherVotes: readonly Omit<Vote, 'kind' | 'atMs' | 'strategy'>[];
  /** The decision strategy the votes were combined with, when any vote was cast. */
  readonly strategy: string | null;
  readonly denied: number;
}

const EMPTY: SecurityData = { user: null, authenticators: [], decisions: [], otherVotes: [], strategy: null, denied: 0 };

/**
 * Symfony's Security panel, from the `trellis:security:*` events: who the request ran as (roles and
 * the roles the hierarchy adds), which authenticators ran and how each ended, and the access
 * decision log with every voter's vote. Secrets found in the request are scrubbed from all of it
 * (an authenticator's failure message quoting a token, say).
 */
export const securityCollector: DataCollector<SecurityData> = {
  name: 'security',
  collect(ctx) {
    const records = ctx.security ?? [];
    if (records.length === 0) return EMPTY;
    const { redaction } = ctx;
    // The credentials are learnt first, so that the scrub below finds them wherever they recur.
    redaction.learnRequest(ctx.request);
    let user: SecurityData['user'] = null;
    let strategy: string | null = null;
    const authenticators: SecurityData['authenticators'][number][] = [];
    const decisions: SecurityData['decisions'][number][] = [];
    let pending: SecurityData['otherVotes'][number][] = [];
    for (const r of records) {
      if (r.kind === 'authentication') {
        authenticators.push({ name: r.authenticator, outcome: r.outcome, reason: r.reason, atMs: r.atMs });
        if (r.outcome === 'success' && r.user !== null) user = { identifier: r.user, roles: r.roles, reachableRoles: r.reachableRoles };
      } else if (r.kind === 'vote') {
        strategy ??= r.strategy;
        pending.push({ voter: r.voter, attribute: r.attribute, subject: r.subject, vote: r.vote });
      } else {
        const { kind: _, ...decision } = r;
        // The objects are request data: secret-named fields go, like anywhere else in the profile.
        const objects = r.stage === 'post_denormalize' ? { object: redaction.fields(r.object ?? null), previous: redaction.fields(r.previous ?? null) } : {};
        decisions.push({ ...decision, ...objects, votes: pending });
        pending = [];
      }
    }
    return redaction.scrub({ user, authenticators, decisions, otherVotes: pending, strategy, denied: decisions.filter((d) => !d.granted).length });
  },
};
