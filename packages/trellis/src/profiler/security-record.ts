import type { AccessDecisionEvent, AuthenticationEvent, VoteEvent } from '../observe/channels.ts';
import { jsonLongerThan } from './json-longer-than.ts';

/** What the profile keeps of one security event, in the order they happened. */
export type SecurityRecord =
  | {
      readonly kind: 'authentication';
      readonly atMs: number;
      readonly authenticator: string;
      readonly outcome: AuthenticationEvent['outcome'];
      readonly user: string | null;
      readonly roles: readonly string[];
      readonly reachableRoles: readonly string[];
      readonly reason: string | null;
    }
  | {
      readonly kind: 'vote';
      readonly atMs: number;
      readonly voter: string;
      readonly attribute: string;
      readonly subject: string | null;
      readonly vote: VoteEvent['vote'];
      readonly strategy: string | null;
    }
  | {
      readonly kind: 'decision';
      readonly atMs: number;
      readonly attribute: string;
      readonly granted: boolean;
      readonly stage: AccessDecisionEvent['stage'];
      readonly message: string | null;
      readonly expression: string | null;
      readonly path: string | null;
      /** securityPostDenormalize only: the new and the previous object, copied (at most MAX_OBJECT_CHARS of JSON each, else named). */
      readonly object?: unknown;
      readonly previous?: unknown;
    };

/** An object kept in a decision record at most this long as JSON; a longer one is only named. */
const MAX_OBJECT_CHARS = 4096;

/**
 * A copy of `value` as JSON has it (it may change after the check), or its name when too long.
 * Measured before it is encoded: a review posted with a 900 KB comment was encoded whole, twice
 * (the new object and the previous), on the request thread, to be named anyway.
 */
function kept(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  try {
    // Inside the try: a getter or a proxy may throw while it is walked, as while it is encoded.
    if (jsonLongerThan(value, MAX_OBJECT_CHARS)) return subjectName(value);
    const text = JSON.stringify(value);
    return text === undefined ? null : text.length <= MAX_OBJECT_CHARS ? JSON.parse(text) : subjectName(value);
  } catch {
    return subjectName(value);
  }
}

/** Security events kept per request: a loop of checks must not make a profile of unbounded size. */
export const MAX_SECURITY_RECORDS = 500;

/**
 * A vote's subject named, never copied: its class (or "object") and its id. The object itself may
 * hold anything (a user's fields, a body), and a name is what the panel needs to tell checks apart.
 */
export function subjectName(subject: unknown): string | null {
  if (subject === null || subject === undefined) return null;
  if (typeof subject !== 'object') return typeof subject === 'string' ? subject.slice(0, 100) : String(subject);
  const ctor = (subject as { constructor?: { name?: unknown } }).constructor?.name;
  const name = typeof ctor === 'string' && ctor !== '' && ctor !== 'Object' ? ctor : Array.isArray(subject) ? 'array' : 'object';
  const id = (subject as { id?: unknown }).id ?? (subject as { '@id'?: unknown })['@id'];
  return typeof id === 'string' || typeof id === 'number' ? `${name} #${String(id).slice(0, 100)}` : name;
}

export function authenticationRecord(e: AuthenticationEvent, atMs: number): SecurityRecord {
  return { kind: 'authentication', atMs, authenticator: e.authenticator, outcome: e.outcome, user: e.user, roles: e.roles, reachableRoles: e.reachableRoles ?? e.roles, reason: e.reason ?? null };
}

export function voteRecord(e: VoteEvent, atMs: number): SecurityRecord {
  return { kind: 'vote', atMs, voter: e.voter, attribute: e.attribute, subject: subjectName(e.subject), vote: e.vote, strategy: e.strategy ?? null };
}

export function decisionRecord(e: AccessDecisionEvent, atMs: number): SecurityRecord {
  const decision = { kind: 'decision' as const, atMs, attribute: e.attribute, granted: e.granted, stage: e.stage, message: e.message ?? null, expression: e.expression ?? null, path: e.path ?? null };
  return e.stage === 'post_denormalize' ? { ...decision, object: kept(e.object), previous: kept(e.previousObject) } : decision;
}
