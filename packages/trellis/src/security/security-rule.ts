import type { FastifyRequest } from 'fastify';
import type { User } from './user.ts';

/** What a rule sees: API Platform's `user`, `object`, `previous_object` and `is_granted()`. */
export interface SecurityContext {
  readonly request: FastifyRequest;
  readonly user: User | null;
  /** Before deserialisation: the loaded object (or null for collections and creation). After: the new object. */
  readonly object: unknown;
  /** After deserialisation: an unmodified copy of the object as loaded; null before. */
  readonly previousObject: unknown;
  isGranted(attribute: string, subject?: unknown): Promise<boolean>;
}

/**
 * An access rule on an operation or a path: a role or attribute name (granted through the voters,
 * e.g. "ROLE_ADMIN" or "IS_AUTHENTICATED"), or a function deciding from the context.
 */
export type SecurityRule = string | ((ctx: SecurityContext) => boolean | Promise<boolean>);

export type SecurityStage = 'security' | 'post_denormalize';

export interface AccessCheck {
  readonly rule: SecurityRule;
  /** The 403 message when the rule denies an authenticated user. */
  readonly message?: string;
  readonly stage: SecurityStage;
  readonly object: unknown;
  readonly previousObject: unknown;
}
