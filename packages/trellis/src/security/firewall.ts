import type { FastifyRequest } from 'fastify';
import { routedPathOf } from '../kernel/routed-path.ts';
import { publish } from '../observe/channels.ts';
import type { Authenticator } from './authenticator.ts';
import { accessDenied, evaluateRule } from './evaluate-rule.ts';
import type { PathRule } from './path-rule.ts';
import type { SecurityState } from './security-state.ts';
import type { User } from './user.ts';

export interface FirewallOptions {
  readonly authenticators: readonly Authenticator[];
  readonly pathRules: readonly PathRule[];
  readonly publicPaths: readonly RegExp[];
  readonly state: SecurityState;
}

/**
 * The firewall phase: authenticate with the first authenticator whose credentials the request
 * carries, then apply the first matching path rule. Invalid credentials are a 401 even where
 * anonymous access would do: a client that sent a token must learn that it is not accepted.
 */
export class Firewall {
  readonly #options: FirewallOptions;

  constructor(options: FirewallOptions) {
    this.#options = options;
  }

  /**
   * Runs the firewall phase. Returns null when the request was settled without waiting (public
   * path, or anonymous with no path rule: the common case, kept free of promises), otherwise a
   * promise that rejects with a 401/403 HttpError when access is refused.
   */
  handle(request: FastifyRequest): Promise<void> | null {
    // Routing comes first (as in Symfony, whose router listener runs before the firewall): an
    // unknown path is a 404 for everyone, e.g. GET /admin/.env.
    if (request.is404) return null;
    // The path as routed (decoded, absolute form reduced): `/%61dmin` meets the `^/admin` rule.
    const path = routedPathOf(request);
    if (this.#options.publicPaths.some((p) => p.test(path))) {
      publish('accessDecision', () => ({ request, attribute: 'PUBLIC_ACCESS', granted: true, stage: 'path' }));
      return null;
    }
    const rule = this.#options.pathRules.find((r) => r.path.test(path) && (r.methods === undefined || r.methods.includes(request.method)));
    if (rule === undefined && !this.#mayCarryCredentials(request)) {
      for (const { name } of this.#options.authenticators) {
        publish('authentication', () => ({ request, authenticator: name, outcome: 'skipped', user: null, roles: [] }));
      }
      return null;
    }
    return this.#handle(request, path, rule);
  }

  #mayCarryCredentials(request: FastifyRequest): boolean {
    for (const authenticator of this.#options.authenticators) {
      const headers = authenticator.credentialHeaders;
      if (headers === undefined || headers.some((h) => request.headers[h] !== undefined)) return true;
    }
    return false;
  }

  async #handle(request: FastifyRequest, path: string, rule: PathRule | undefined): Promise<void> {
    const { state } = this.#options;
    request.user = await this.#authenticate(request);
    if (rule === undefined) return;
    if (!(await evaluateRule(request, state, 'path', rule.rule, null, null, rule.message, rule.path.source))) throw accessDenied(request, state, rule.message);
  }

  async #authenticate(request: FastifyRequest): Promise<User | null> {
    for (const authenticator of this.#options.authenticators) {
      let user: User | null;
      try {
        user = await authenticator.authenticate(request);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        publish('authentication', () => ({ request, authenticator: authenticator.name, outcome: 'failure', user: null, roles: [], reason }));
        throw error;
      }
      if (user === null) {
        publish('authentication', () => ({ request, authenticator: authenticator.name, outcome: 'skipped', user: null, roles: [] }));
        continue;
      }
      publish('authentication', () => ({ request, authenticator: authenticator.name, outcome: 'success', user: user.identifier, roles: [...user.roles], reachableRoles: this.#options.state.decisions.reachableRoles(user.roles) }));
      return user;
    }
    return null;
  }
}
