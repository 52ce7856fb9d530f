import type { SecurityRule } from '../security/security-rule.ts';
import type { StateProcessor, ProcessorFunction } from './state-processor.ts';
import type { StateProvider, ProviderFunction } from './state-provider.ts';
import type { ResourceDefinition } from './define-resource.ts';

export type OperationKind = 'item' | 'collection';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a declaration may say about one operation; built-ins fill in the rest. */
export interface OperationOptions {
  /** Required for custom operations; built-ins (getCollection, get, post, put, patch, delete) know theirs. */
  readonly method?: HttpMethod;
  /** Route relative to the resource path, e.g. `/:id/publish`; built-ins use `` or `/:id`. */
  readonly path?: string;
  readonly kind?: OperationKind;
  /** Response status on success. */
  readonly status?: number;
  readonly description?: string;
  /** Checked after the provider loads the object, before deserialisation (API Platform's `security`). */
  readonly security?: SecurityRule;
  readonly securityMessage?: string;
  /** Checked after deserialisation, with the new object and an unmodified copy of the previous one. */
  readonly securityPostDenormalize?: SecurityRule;
  readonly securityPostDenormalizeMessage?: string;
  /** Pipeline switches: turn a stage off for this operation. */
  readonly read?: boolean;
  readonly deserialize?: boolean;
  readonly validate?: boolean;
  readonly write?: boolean;
  readonly serialize?: boolean;
  readonly provider?: StateProvider | ProviderFunction;
  readonly processor?: StateProcessor | ProcessorFunction;
  /** Request body media types this operation accepts (415 otherwise). */
  readonly inputMediaTypes?: readonly string[];
}

/** One resolved operation: what the router, the pipeline, the docs and the profiler read. */
export interface Operation {
  readonly name: string;
  readonly method: HttpMethod;
  readonly kind: OperationKind;
  /** Full route path, e.g. `/books/:id`. */
  readonly path: string;
  readonly status: number;
  readonly description: string;
  readonly security: SecurityRule | null;
  readonly securityMessage: string | undefined;
  readonly securityPostDenormalize: SecurityRule | null;
  readonly securityPostDenormalizeMessage: string | undefined;
  readonly read: boolean;
  readonly deserialize: boolean;
  readonly validate: boolean;
  readonly write: boolean;
  readonly serialize: boolean;
  /** Merge the body into the loaded object (RFC 7396) instead of replacing it. */
  readonly merge: boolean;
  readonly provider: StateProvider;
  readonly processor: StateProcessor;
  readonly inputMediaTypes: readonly string[];
  /** Set once the resource is assembled. */
  readonly resource: ResourceDefinition;
}

export const ENTITY_MEDIA_TYPES = ['application/ld+json', 'application/json', 'application/vnd.api+json', 'application/hal+json'] as const;
export const PATCH_MEDIA_TYPES = ['application/merge-patch+json', 'application/vnd.api+json'] as const;

type BuiltIn = Required<Pick<OperationOptions, 'method' | 'path' | 'kind' | 'status' | 'read' | 'deserialize' | 'validate' | 'write' | 'serialize'>> & {
  readonly merge: boolean;
  readonly inputMediaTypes: readonly string[];
  readonly description: (name: string) => string;
};

/** The default operations (API Platform's GetCollection, Get, Post, Put, Patch, Delete). */
export const BUILT_IN_OPERATIONS: Readonly<Record<string, BuiltIn>> = {
  getCollection: { method: 'GET', path: '', kind: 'collection', status: 200, read: true, deserialize: false, validate: false, write: false, serialize: true, merge: false, inputMediaTypes: [], description: (n) => `Retrieves the collection of ${n} resources.` },
  get: { method: 'GET', path: '/:id', kind: 'item', status: 200, read: true, deserialize: false, validate: false, write: false, serialize: true, merge: false, inputMediaTypes: [], description: (n) => `Retrieves a ${n} resource.` },
  post: { method: 'POST', path: '', kind: 'collection', status: 201, read: false, deserialize: true, validate: true, write: true, serialize: true, merge: false, inputMediaTypes: ENTITY_MEDIA_TYPES, description: (n) => `Creates a ${n} resource.` },
  put: { method: 'PUT', path: '/:id', kind: 'item', status: 200, read: true, deserialize: true, validate: true, write: true, serialize: true, merge: false, inputMediaTypes: ENTITY_MEDIA_TYPES, description: (n) => `Replaces the ${n} resource.` },
  patch: { method: 'PATCH', path: '/:id', kind: 'item', status: 200, read: true, deserialize: true, validate: true, write: true, serialize: true, merge: true, inputMediaTypes: PATCH_MEDIA_TYPES, description: (n) => `Updates the ${n} resource.` },
  delete: { method: 'DELETE', path: '/:id', kind: 'item', status: 204, read: true, deserialize: false, validate: false, write: true, serialize: false, merge: false, inputMediaTypes: [], description: (n) => `Removes the ${n} resource.` },
};

/** Operations a resource gets when it declares none; PUT is opt-in. */
export const DEFAULT_OPERATIONS = ['getCollection', 'get', 'post', 'patch', 'delete'] as const;
