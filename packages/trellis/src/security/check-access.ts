import type { FastifyRequest } from 'fastify';
import { accessDenied, evaluateRule } from './evaluate-rule.ts';
import type { AccessCheck } from './security-rule.ts';
import { securityStateOf } from './security-state.ts';

/**
 * Enforces one access rule for the current request; throws 401 (no credentials) or 403 (denied,
 * with `check.message`). The resource pipeline calls it at the `security` stage (before
 * deserialisation, with the loaded object) and the `post_denormalize` stage (after, with the new
 * object and an unmodified copy of the previous one), like API Platform's `security` and
 * `securityPostDenormalize`.
 */
export async function checkAccess(request: FastifyRequest, check: AccessCheck): Promise<void> {
  const state = securityStateOf(request);
  const granted = await evaluateRule(request, state, check.stage, check.rule, check.object, check.previousObject, check.message);
  if (!granted) throw accessDenied(request, state, check.message);
}
