import { HttpError } from '../kernel/http-error.ts';
import type { ResourceDefinition } from '../resources/define-resource.ts';
import type { PageLinks } from '../resources/pagination.ts';
import type { ResourceRegistry } from '../resources/resource-registry.ts';
import type { Item } from '../resources/state-provider.ts';

export type Representation =
  | { readonly kind: 'item'; readonly item: Item }
  | {
      readonly kind: 'collection';
      readonly items: readonly Item[];
      /** Null under partial pagination. */
      readonly totalItems: number | null;
      /** Null when the collection is not paginated. */
      readonly links: PageLinks | null;
      readonly itemsPerPage: number;
    };

export interface EncodeContext {
  readonly resource: ResourceDefinition;
  /** Whether some relation is embedded (formats may take a faster path when none is). */
  readonly embedded: boolean;
  /** Sparse fieldsets (JSON:API `fields[Type]=a,b`): for a type listed, only those fields. */
  readonly fields?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface DecodeContext {
  readonly resource: ResourceDefinition;
  readonly registry: ResourceRegistry;
  /** The id in the URL of an item operation (PUT, PATCH); absent when the body creates one. */
  readonly id?: string;
}

/**
 * One hypermedia format (JSON-LD/Hydra, JSON, HAL, JSON:API).
 *
 * Contract: `encode` returns the complete JSON text for an item or a page of `ctx.resource`, is
 * deterministic (the same input gives the same bytes, so ETags are stable), renders `Ref`s as
 * links (or embedded documents when they carry data), and never throws for a valid item.
 * `decode` turns a parsed request body into API-shaped input (property names of the schema,
 * relations as IRI strings); it throws `HttpError` 400 (`invalid_body`) for a document it cannot
 * read and leaves type checking to validation.
 */
export interface Format {
  readonly name: string;
  /** The first one is the canonical media type sent in Content-Type. */
  readonly mediaTypes: readonly string[];
  /** URL extension selecting this format, e.g. `jsonld` for `/books/1.jsonld`. */
  readonly extension: string;
  encode(value: Representation, ctx: EncodeContext): string;
  decode(body: unknown, ctx: DecodeContext): Record<string, unknown>;
}

/** A body that is a JSON object, or the 400 saying it must be. */
export function requireObject(body: unknown, expected = 'a JSON object'): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidBody(expected);
  return body as Record<string, unknown>;
}

export function invalidBody(expected: string): HttpError {
  return HttpError.of('invalid_body', { expected });
}
