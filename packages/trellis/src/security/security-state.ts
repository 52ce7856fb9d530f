import type { FastifyRequest } from 'fastify';
import { AccessDecisionManager } from './access-decision-manager.ts';
import { bearerChallenge } from './challenge.ts';

/** What access checks need from the app's security setup; the security plugin decorates it. */
export interface SecurityState {
  readonly decisions: AccessDecisionManager;
  /** WWW-Authenticate for a 401 without (or with no valid) credentials. */
  readonly challenge: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the security plugin; absent in a bare Fastify app. */
    trellisSecurity?: SecurityState;
  }
}

const fallback: SecurityState = { decisions: AccessDecisionManager.withDefaults(), challenge: bearerChallenge('api') };

/** The app's security state, or the defaults (role hierarchy, built-in voters) without the plugin. */
export function securityStateOf(request: FastifyRequest): SecurityState {
  return request.server?.trellisSecurity ?? fallback;
}
