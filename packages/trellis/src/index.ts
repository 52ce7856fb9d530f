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
export { Type, type Static, type TSchema, type TObject } from '@sinclair/typebox';
export { sql, type Kysely, type Migration, type ColumnDefinitionBuilder } from 'kysely';
export { defineResource, type ResourceDefinition, type ResourceOptions, type PropertyDefinition, type PropertyType, type PaginationOptions, type ValidationRule } from './resources/define-resource.ts';
export { BUILT_IN_OPERATIONS, DEFAULT_OPERATIONS, type Operation, type OperationOptions, type OperationKind, type HttpMethod } from './resources/operation.ts';
export type { StateProvider, ProviderFunction, Item, Page, OperationContext, PaginationState, QueryParams } from './resources/state-provider.ts';
export type { StateProcessor, ProcessorFunction } from './resources/state-processor.ts';
export { kyselyStateProvider } from './resources/kysely-state-provider.ts';
export { kyselyStateProcessor } from './resources/kysely-state-processor.ts';
export { Ref } from './resources/ref.ts';
export { ResourceRegistry } from './resources/resource-registry.ts';
export type { Violation } from './resources/violation.ts';
export type { Filter, FilterParameter, FilterContext } from './resources/filter.ts';
export { searchFilter, type SearchStrategy } from './resources/filters/search-filter.ts';
export { rangeFilter } from './resources/filters/range-filter.ts';
export { dateFilter } from './resources/filters/date-filter.ts';
export { orderFilter, type OrderFilterOptions } from './resources/filters/order-filter.ts';
export { booleanFilter } from './resources/filters/boolean-filter.ts';
export { existsFilter } from './resources/filters/exists-filter.ts';
export type { PageLinks } from './resources/pagination.ts';
export type { Format, Representation, EncodeContext, DecodeContext } from './formats/format.ts';
export { OUTPUT_FORMATS } from './formats/output-formats.ts';
export { jsonldFormat } from './formats/jsonld/jsonld-format.ts';
export { jsonFormat } from './formats/json-format.ts';
export { halFormat } from './formats/hal/hal-format.ts';
export { jsonapiFormat } from './formats/jsonapi/jsonapi-format.ts';
export { mergePatch } from './formats/merge-patch.ts';
export { openDatabase, isPostgres, onDatabaseError, type Database, type OpenDatabaseOptions } from './data/database.ts';
export { waitForDatabase, DatabaseUnreachableError, databaseLocation } from './data/wait-for-database.ts';
export { isDatabaseUnavailable } from './data/database-unavailable.ts';
export { NodeSqliteDialect } from './data/node-sqlite-dialect.ts';
export { migrate } from './data/migrate.ts';
export { migrationsIn } from './data/migrations-in.ts';

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
export { openApiDocument, type OpenApiContact, type OpenApiOptions, type OpenApiServer } from './docs/openapi-document.ts';
export { hydraDocumentation } from './docs/hydra-documentation.ts';
export type { AuthenticationMethods } from './docs/security-schemes.ts';
