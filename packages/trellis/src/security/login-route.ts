import type { FastifyInstance } from 'fastify';
import { HttpError } from '../kernel/http-error.ts';
import { publish } from '../observe/channels.ts';
import { challenge } from './challenge.ts';
import type { JwtIssuer } from './jwt-issuer.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { UserProvider } from './user-provider.ts';
import { verifyCredentials } from './verify-credentials.ts';

export interface LoginRouteOptions {
  readonly path: string;
  readonly users: UserProvider;
  readonly issuer: JwtIssuer;
  readonly realm: string;
  readonly throttle: LoginThrottle;
}

/**
 * `POST <path>` with JSON `{ "email", "password" }` answers `{ "token": "<jwt>" }`. An unknown email
 * and a wrong password get the same 401 in the same time (see verify-credentials.ts). Attempts are
 * throttled per client and failures per account (login-throttle.ts): 429 before any password check.
 */
export function registerLoginRoute(app: FastifyInstance, options: LoginRouteOptions): void {
  app.post(options.path, async (request, reply) => {
    const body = request.body as Record<string, unknown> | null | undefined;
    const email = body?.email;
    const password = body?.password;
    if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof email !== 'string' || typeof password !== 'string') {
      throw HttpError.of('login_body_invalid');
    }
    const checked = await options.throttle.attempt(request, email);
    let user: Awaited<ReturnType<typeof verifyCredentials>>;
    try {
      user = await verifyCredentials(options.users, email, password);
      if (user === null) await options.throttle.failed(request, email);
    } finally {
      checked();
    }
    publish('authentication', () => ({ request, authenticator: 'login', outcome: user ? 'success' : 'failure', user: user?.identifier ?? null, roles: user ? [...user.roles] : [] }));
    // RFC 9110 §15.5.2: every 401 carries a challenge; Bearer is the scheme an issued token is used with.
    if (user === null) throw HttpError.of('invalid_credentials', {}, { headers: { 'www-authenticate': challenge('Bearer', { realm: options.realm }) } });
    request.user = user;
    // RFC 6749 §5.1: responses carrying tokens are not stored by caches.
    reply.header('cache-control', 'no-store');
    return { token: await options.issuer.issue(user) };
  });
}
