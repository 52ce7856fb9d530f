import type { FastifyRequest } from 'fastify';
import { HttpError } from '../kernel/http-error.ts';
import type { AccessCheck, SecurityContext } from './security-rule.ts';

/**
 * Enforces one access rule for the current request; throws 401 (no credentials) or 403 (denied).
 * The resource pipeline calls it at the `security` stage (before deserialisation) and the
 * `post_denormalize` stage (after, with the new and previous object).
 *
 * Placeholder until the security layer lands: attributes are checked against the user's own roles.
 */
export async function checkAccess(request: FastifyRequest, check: AccessCheck): Promise<void> {
  const user = request.user ?? null;
  const ctx: SecurityContext = {
    request,
    user,
    object: check.object,
    previousObject: check.previousObject,
    isGranted: async (attribute) => user !== null && user.roles.includes(attribute),
  };
  const granted = typeof check.rule === 'string' ? await ctx.isGranted(check.rule) : await check.rule(ctx);
  if (granted) return;
  if (user === null) throw new HttpError(401, 'unauthorized', 'Full authentication is required to access this resource.', { className: 'AuthenticationException' });
  throw new HttpError(403, 'access_denied', check.message ?? 'Access Denied.', { className: 'AccessDeniedException' });
}
