import type { SecurityRule } from './security-rule.ts';

/** An access rule on request paths (Symfony's access_control): the first matching rule applies. */
export interface PathRule {
  readonly path: RegExp;
  /** Limits the rule to these methods; all methods when absent. */
  readonly methods?: readonly string[];
  readonly rule: SecurityRule;
  /** The 403 message; "Access Denied." when absent. */
  readonly message?: string;
}

export const DEFAULT_PATH_RULES: readonly PathRule[] = [{ path: /^\/admin(\/|$)/, rule: 'ROLE_ADMIN' }];

/**
 * Paths outside authentication altogether (Symfony's `security: false` dev firewall): the profiler
 * and the docs, which have their own gates. A broken Authorization header must not hide them.
 */
export const DEFAULT_PUBLIC_PATHS: readonly RegExp[] = [/^\/_profiler(\/|$)/, /^\/_wdt(\/|$)/, /^\/docs(\/|\.|$)/];
