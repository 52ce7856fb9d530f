import fp from 'fastify-plugin';
import { publish } from '../observe/channels.ts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { TrellisConfig } from '../app/config.ts';
import { AccessDecisionManager, type DecisionStrategy } from './access-decision-manager.ts';
import { ApiKeyAuthenticator } from './api-key-authenticator.ts';
import type { Authenticator } from './authenticator.ts';
import { BasicAuthenticator } from './basic-authenticator.ts';
import { bearerChallenge } from './challenge.ts';
import { Firewall } from './firewall.ts';
import { JwtAuthenticator } from './jwt-authenticator.ts';
import { JwtIssuer } from './jwt-issuer.ts';
import { loadJwtKeys, type JwtKeys } from './jwt-keys.ts';
import { KyselyUserProvider } from './kysely-user-provider.ts';
import { registerLoginRoute } from './login-route.ts';
import { LoginThrottle } from './login-throttle.ts';
import { configurePasswordWork } from './password.ts';
import { MemoryUserProvider } from './memory-user-provider.ts';
import { DEFAULT_PATH_RULES, DEFAULT_PUBLIC_PATHS, type PathRule } from './path-rule.ts';
import { DEFAULT_ROLE_HIERARCHY, RoleHierarchy, type RoleHierarchyMap } from './role-hierarchy.ts';
import type { SecurityState } from './security-state.ts';
import type { UserProvider } from './user-provider.ts';
import type { Voter } from './voter.ts';

export interface SecurityOptions {
  /** Where users come from; default: the `users` table when `database` is a Kysely instance, else nobody. */
  readonly userProvider?: UserProvider;
  /** Replaces the default authenticators (JWT bearer, X-API-Key, and Basic in debug). */
  readonly authenticators?: readonly Authenticator[];
  /** The app's own voters, asked after the role and authenticated voters. */
  readonly voters?: readonly Voter[];
  /** Default: ROLE_ADMIN includes ROLE_USER. */
  readonly roleHierarchy?: RoleHierarchyMap;
  /** Default: affirmative. */
  readonly strategy?: DecisionStrategy;
  /** First match applies; default: `^/admin` requires ROLE_ADMIN. */
  readonly pathRules?: readonly PathRule[];
  /** Paths that skip authentication; default: the profiler and the docs. */
  readonly publicPaths?: readonly RegExp[];
  /** The login endpoint; `false` for none. Default `/auth`. */
  readonly loginPath?: string | false;
  /** HTTP Basic; default: on in debug only. */
  readonly basicAuth?: boolean;
  /** The realm of WWW-Authenticate challenges; default "api". */
  readonly realm?: string;
}

const isKysely = (db: unknown): db is Kysely<any> =>
  db !== null && typeof db === 'object' && typeof (db as { selectFrom?: unknown }).selectFrom === 'function';

/** The JWT parts of the app: keys, issuer and authenticator, shared by the firewall and `/auth`. */
function jwtParts(config: TrellisConfig, users: UserProvider, realm: string): { keys: JwtKeys; authenticator: JwtAuthenticator; issuer: JwtIssuer | null } {
  const keys = loadJwtKeys(config.jwt);
  const { issuer, audience, ttlSeconds } = config.jwt;
  return {
    keys,
    authenticator: new JwtAuthenticator({ keys, issuer, audience, users, realm }),
    issuer: keys.signKey ? new JwtIssuer({ keys, issuer, audience, ttlSeconds }) : null,
  };
}

/**
 * The firewall phase (preParsing, before the body; see kernel/lifecycle.md): authenticates every routed request,
 * applies path rules, and provides the decision manager `checkAccess` uses for the per-operation
 * `security` and `securityPostDenormalize` checks. Registers `POST /auth`.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, opts: SecurityOptions & { config: TrellisConfig; database: unknown }) => {
    const { config } = opts;
    const realm = opts.realm ?? 'api';
    const users = opts.userProvider ?? (isKysely(opts.database) ? new KyselyUserProvider(opts.database) : new MemoryUserProvider());
    const jwt = jwtParts(config, users, realm);
    if (jwt.keys.ephemeral) app.log.warn({ channel: 'security' }, 'No JWT_SECRET or JWT key files: tokens are signed with a random per-process secret and die with the process.');

    const loginPath = opts.loginPath ?? '/auth';
    const loginRoute = loginPath !== false && jwt.issuer !== null;
    const basicAuth = opts.authenticators === undefined && (opts.basicAuth ?? config.debug);
    // One throttle for every way a password is tried: the login route and HTTP Basic.
    const throttle = loginRoute || basicAuth ? await LoginThrottle.register(app, { ...config.loginThrottle, redisUrl: config.redisUrl, redisKeyPrefix: config.redisKeyPrefix }) : null;
    const authenticators = opts.authenticators ?? [
      jwt.authenticator,
      new ApiKeyAuthenticator({ users, realm }),
      ...(basicAuth ? [new BasicAuthenticator({ users, realm, throttle })] : []),
    ];
    const hierarchy = new RoleHierarchy(opts.roleHierarchy ?? DEFAULT_ROLE_HIERARCHY);
    const state: SecurityState = {
      decisions: AccessDecisionManager.withDefaults({ hierarchy, voters: opts.voters, strategy: opts.strategy }),
      challenge: bearerChallenge(realm),
    };
    app.decorate('trellisSecurity', state);

    const firewall = new Firewall({
      authenticators,
      pathRules: opts.pathRules ?? DEFAULT_PATH_RULES,
      publicPaths: opts.publicPaths ?? DEFAULT_PUBLIC_PATHS,
      state,
    });
    // Before the body is parsed (preParsing): authentication needs only headers, and a request
    // refused here (401, 403) never has its body read. A callback hook, not an async one: the
    // anonymous fast path then costs no promise at all.
    app.addHook('preParsing', (request, _reply, payload, done) => {
      publish('phase', () => ({ request, phase: 'firewall', at: performance.now() }));
      let pending: Promise<void> | null;
      try {
        pending = firewall.handle(request);
      } catch (error) {
        done(error as Error);
        return;
      }
      if (pending === null) done(null, payload);
      else pending.then(() => done(null, payload), (error: Error) => done(error));
    });

    configurePasswordWork({ concurrency: config.loginThrottle.passwordConcurrency, maxQueue: config.loginThrottle.passwordQueue });
    if (loginRoute && throttle !== null) registerLoginRoute(app, { path: loginPath, users, issuer: jwt.issuer!, realm, throttle });
  },
  { name: 'trellis-security', fastify: '5.x' },
);
