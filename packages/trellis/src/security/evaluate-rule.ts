import type { FastifyRequest } from 'fastify';
import { HttpError } from '../kernel/http-error.ts';
import { ellipsis } from '../logging/cut-string.ts';
import { publish } from '../observe/channels.ts';
import type { SecurityContext, SecurityRule } from './security-rule.ts';
import type { SecurityState } from './security-state.ts';

type Stage = 'path' | 'security' | 'post_denormalize';

/** Rule sources by rule: a rule never changes, and a profiled request asks for it every time. */
const sources = new WeakMap<object, string>();

/** A function rule's source for the profiler, at most 300 characters. */
function ruleSource(rule: (...args: never[]) => unknown): string {
  let cut = sources.get(rule);
  if (cut === undefined) {
    // Run from TypeScript sources, type annotations are blanked to spaces: runs of them inside a line are one space.
    const source = Function.prototype.toString.call(rule).replace(/(\S)[ \t]{2,}(?=\S)/g, '$1 ').replace(/(\S)[ \t]+(?=[),;])/g, '$1');
    cut = ellipsis(source, 300);
    sources.set(rule, cut);
  }
  return cut;
}

/** The label a rule gets in decision events: the attribute, or the function's name. */
export const ruleLabel = (rule: SecurityRule): string => (typeof rule === 'string' ? rule : rule.name || '(rule)');

/**
 * Decides one rule for the request's user and publishes the decision. A string rule is an
 * attribute for the voters with the object as subject; a function rule gets API Platform's
 * variables (`user`, `object`, `previousObject`, `isGranted`).
 */
export async function evaluateRule(request: FastifyRequest, state: SecurityState, stage: Stage, rule: SecurityRule, object: unknown, previousObject: unknown, message?: string, pathPattern?: string): Promise<boolean> {
  const user = request.user ?? null;
  const ctx: SecurityContext = {
    request,
    user,
    object,
    previousObject,
    isGranted: (attribute, subject = object) => state.decisions.decide(user, attribute, subject, request),
  };
  const granted = typeof rule === 'string' ? await ctx.isGranted(rule) : (await rule(ctx)) === true;
  publish('accessDecision', () => ({ request, attribute: ruleLabel(rule), granted, stage, message: granted ? undefined : message, ...(typeof rule === 'function' ? { expression: ruleSource(rule) } : {}), ...(pathPattern ? { path: pathPattern } : {}), ...(stage === 'post_denormalize' ? { object, previousObject } : {}) }));
  return granted;
}

/**
 * The error for a denied rule. RFC 9110 §15.5.2: without credentials the answer is 401 with a
 * challenge (authenticating might help); with them, §15.5.4: 403 with the rule's message.
 */
export function accessDenied(request: FastifyRequest, state: SecurityState, message?: string): HttpError {
  if ((request.user ?? null) === null) return HttpError.of('authentication_required', {}, { headers: { 'www-authenticate': state.challenge } });
  return HttpError.of('access_denied', { message });
}
