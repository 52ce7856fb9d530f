export { createApp, type CreateAppOptions } from './app/create-app.ts';
export { loadConfig, ConfigError, type TrellisConfig, type ProfilerConfig, type JwtConfig } from './app/config.ts';
export { serve } from './app/serve.ts';
export { tlsCredentials, type TlsCredentials } from './app/tls-credentials.ts';
export { HttpError, isHttpError } from './kernel/http-error.ts';
export { errorCodes, type ErrorCode } from './kernel/error-codes.ts';
export type { TrellisContext } from './kernel/kernel-plugin.ts';
export { channels, publish, subscribe, type ChannelPayloads } from './observe/channels.ts';
export { html, raw, escapeHtml, safeHref, SafeHtml } from './html/html.ts';
export type { ErrorFormat } from './errors/error-format.ts';
export type { ErrorView } from './errors/error-view.ts';
export { createLogger } from './logging/create-logger.ts';
export type { LogRecord } from './logging/log-record.ts';

// resources (issue: resource API)

// security (issue: security firewall and CORS)
export type { User } from './security/user.ts';
export type { SecurityRule, SecurityContext, AccessCheck, SecurityStage } from './security/security-rule.ts';
export { checkAccess } from './security/check-access.ts';
export type { SecurityOptions } from './security/security-plugin.ts';
export type { Authenticator, AuthenticationRequest } from './security/authenticator.ts';
export type { Voter, Vote } from './security/voter.ts';
export type { UserProvider, UserCredentials } from './security/user-provider.ts';
export type { PathRule } from './security/path-rule.ts';
export { AccessDecisionManager, type DecisionStrategy } from './security/access-decision-manager.ts';
export { RoleHierarchy, DEFAULT_ROLE_HIERARCHY, type RoleHierarchyMap } from './security/role-hierarchy.ts';
export { MemoryUserProvider, type MemoryUserRecord } from './security/memory-user-provider.ts';
export { KyselyUserProvider } from './security/kysely-user-provider.ts';
export { hashPassword, verifyPassword } from './security/password.ts';
export { apiKeyHash } from './security/api-key-hash.ts';
export { JwtIssuer } from './security/jwt-issuer.ts';

// docs (issue: API documentation)
