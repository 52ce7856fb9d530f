import type { FastifyRequest } from 'fastify';
import type { Database } from '../data/database.ts';
import type { Operation } from './operation.ts';
import type { ResourceRegistry } from './resource-registry.ts';

/** A resource object as the pipeline carries it: API property names; relations as `Ref` or null. */
export type Item = Record<string, unknown>;

/** One page of a collection. `totalItems` is null under partial pagination (no COUNT query). */
export interface Page<T = Item> {
  readonly items: readonly T[];
  readonly totalItems: number | null;
}

export interface PaginationState {
  readonly enabled: boolean;
  readonly page: number;
  readonly itemsPerPage: number;
  readonly partial: boolean;
}

/** Query string values as Fastify parses them (`order[title]` is a key of its own). */
export type QueryParams = Readonly<Record<string, string | string[] | undefined>>;

/** What providers and processors get besides the operation. */
export interface OperationContext {
  readonly request: FastifyRequest | null;
  readonly db: Database;
  readonly registry: ResourceRegistry;
  /** Route parameters; `id` for item operations (without any format extension). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: QueryParams;
  readonly pagination: PaginationState;
  /** Relation properties to embed instead of linking, e.g. `author` (from `?embed=author`). */
  readonly embed: ReadonlySet<string>;
  /** For writes: the object as loaded before deserialisation (an unmodified copy). */
  readonly previousObject: Item | null;
}

/**
 * Loads state for an operation. Contract: for item operations resolve the item or null (the
 * pipeline answers 404); for collection operations resolve a `Page` built with a bounded number
 * of queries, never one per item; throw `HttpError` 400 for unusable query parameters. Relations
 * are `Ref`s; embedded ones carry their loaded data.
 */
export interface StateProvider<T = Item> {
  provide(operation: Operation, context: OperationContext): Promise<T | Page<T> | null>;
}

/** A provider may also be a plain function. */
export type ProviderFunction<T = Item> = (operation: Operation, context: OperationContext) => Promise<T | Page<T> | null>;

export function toProvider(p: StateProvider | ProviderFunction): StateProvider {
  return typeof p === 'function' ? { provide: p } : p;
}

export function isPage(value: unknown): value is Page {
  return typeof value === 'object' && value !== null && Array.isArray((value as Page).items) && 'totalItems' in value;
}
