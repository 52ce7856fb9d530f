import { ReadonlyKind, Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { SecurityRule } from '../security/security-rule.ts';
import type { Filter } from './filter.ts';
import { BUILT_IN_OPERATIONS, DEFAULT_OPERATIONS, type Operation, type OperationOptions } from './operation.ts';
import { withColumnFormat } from './integer-range.ts';
import { kyselyStateProcessor } from './kysely-state-processor.ts';
import { kyselyStateProvider } from './kysely-state-provider.ts';
import { toProcessor, type ProcessorFunction, type StateProcessor } from './state-processor.ts';
import { toProvider, type Item, type OperationContext, type ProviderFunction, type StateProvider } from './state-provider.ts';
import type { Violation } from './violation.ts';
import { closestName } from './closest-name.ts';
import { DefinitionError } from './definition-error.ts';

export type PropertyType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'date-time' | 'iri' | 'array' | 'object';

export interface PropertyDefinition {
  readonly name: string;
  readonly column: string;
  readonly schema: TSchema;
  readonly type: PropertyType;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly required: boolean;
  readonly nullable: boolean;
  /** Name of the target resource when the property is a relation (stored as `<column>` holding its id). */
  readonly relation: string | null;
}

export interface PaginationOptions {
  readonly enabled?: boolean;
  readonly itemsPerPage?: number;
  readonly maximumItemsPerPage?: number;
  /** Lets clients choose `itemsPerPage` (capped by the maximum). */
  readonly clientItemsPerPage?: boolean;
  /** Partial pagination skips the COUNT query: no `totalItems`, no last page. */
  readonly partial?: boolean;
  /** Lets clients ask for partial pagination with `?partial=true`. */
  readonly clientPartial?: boolean;
}

export type ValidationRule = (object: Item, context: OperationContext) => readonly Violation[] | Promise<readonly Violation[]>;

export interface ResourceOptions {
  /** Short type name, e.g. `Book`: the JSON-LD `@type`, the context name, the JSON:API type. */
  readonly name: string;
  /** Collection path, e.g. `/books`; items live at `<path>/<id>`. */
  readonly path: string;
  /** Defaults to the lower-cased plural path segment. */
  readonly table?: string;
  readonly description?: string;
  /** TypeBox object; `id` is the identifier. Mark read-only fields with `Type.Readonly…` or `{ readOnly: true }`, write-only with `{ writeOnly: true }`. */
  readonly schema: TObject;
  /** Property → column, where not the snake_case of the property (relations default to `<snake>_id`). */
  readonly columns?: Readonly<Record<string, string>>;
  /** Property → target resource name; values are IRIs in every format (embeddable on request). */
  readonly relations?: Readonly<Record<string, string>>;
  /** Operation name → options, or `false` to remove a default. Omitted: getCollection, get, post, patch, delete. */
  readonly operations?: Readonly<Record<string, OperationOptions | true | false>>;
  /** Security defaults applied to every operation that does not set its own. */
  readonly security?: SecurityRule;
  readonly securityMessage?: string;
  readonly filters?: readonly Filter[];
  readonly pagination?: PaginationOptions;
  readonly provider?: StateProvider | ProviderFunction;
  readonly processor?: StateProcessor | ProcessorFunction;
  /** Fields a body may not contain: rejected with a violation (default) or ignored. */
  readonly unknownFields?: 'reject' | 'ignore';
  /** Business rules run at the validate stage, after the schema. */
  readonly validate?: ValidationRule;
}

export interface ResourceDefinition {
  readonly name: string;
  readonly path: string;
  readonly table: string;
  readonly description: string;
  readonly schema: TObject;
  readonly properties: readonly PropertyDefinition[];
  readonly property: ReadonlyMap<string, PropertyDefinition>;
  readonly relations: readonly PropertyDefinition[];
  readonly operations: readonly Operation[];
  readonly filters: readonly Filter[];
  readonly pagination: Required<PaginationOptions>;
  readonly unknownFields: 'reject' | 'ignore';
  readonly validate: ValidationRule | null;
  /** JSON Schema of what the API returns (write-only fields removed). */
  readonly outputSchema: TObject;
  /** JSON Schema of a POST/PUT body (read-only fields removed, relations as IRI strings). */
  readonly inputSchema: TObject;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function typeOf(schema: TSchema, relation: string | null): { type: PropertyType; nullable: boolean } {
  if (relation) return { type: 'iri', nullable: schemaAllowsNull(schema) };
  const variants: TSchema[] = Array.isArray(schema.anyOf) ? schema.anyOf : [schema];
  const nonNull = variants.filter((v) => v.type !== 'null');
  const s = nonNull[0] ?? schema;
  const nullable = nonNull.length < variants.length || (Array.isArray(schema.type) && schema.type.includes('null'));
  const t = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
  if (t === 'string' && (s.format === 'date' || s.format === 'date-time')) return { type: s.format, nullable };
  if (t === 'string' || t === 'integer' || t === 'number' || t === 'boolean' || t === 'array' || t === 'object') return { type: t, nullable };
  return { type: 'string', nullable };
}

function schemaAllowsNull(schema: TSchema): boolean {
  return Array.isArray(schema.anyOf) ? schema.anyOf.some((v: TSchema) => v.type === 'null') : schema.type === 'null';
}

/** A name that is no built-in operation, given without a method: most often a built-in mistyped. */
function unknownOperation(resource: string, name: string): DefinitionError {
  const builtIn = Object.keys(BUILT_IN_OPERATIONS);
  const meant = closestName(name, builtIn);
  return new DefinitionError(`Resource "${resource}": unknown operation "${name}"${meant ? `; did you mean "${meant}"?` : ';'} The built-in ones are ${builtIn.join(', ')}; a custom operation needs a method`);
}

/** The collection's path: the router's own assertion said neither the resource nor the fix. */
function checkPath(options: ResourceOptions): void {
  const { name, path } = options;
  if (!path.startsWith('/')) throw new DefinitionError(`Resource "${name}": path "${path}" must start with "/" (e.g. "/${path}")`);
  if (path.length > 1 && path.endsWith('/')) throw new DefinitionError(`Resource "${name}": path "${path}" must not end with "/" (items are at <path>/<id>)`);
  if (/[\s?#]/.test(path)) throw new DefinitionError(`Resource "${name}": path "${path}" may not hold spaces, "?" or "#"`);
}

function resolveOperations(options: ResourceOptions, resource: { value: ResourceDefinition | null }): Operation[] {
  const declared = options.operations ?? Object.fromEntries(DEFAULT_OPERATIONS.map((n) => [n, true]));
  const defaultProvider = options.provider ? toProvider(options.provider) : kyselyStateProvider;
  const defaultProcessor = options.processor ? toProcessor(options.processor) : kyselyStateProcessor;
  const operations: Operation[] = [];
  for (const [name, value] of Object.entries(declared)) {
    if (value === false) continue;
    const o: OperationOptions = value === true ? {} : value;
    const base = BUILT_IN_OPERATIONS[name];
    const method = o.method ?? base?.method;
    if (!method) throw unknownOperation(options.name, name);
    if (o.path !== undefined && o.path !== '' && !o.path.startsWith('/')) {
      throw new DefinitionError(`Resource "${options.name}": operation "${name}" has path "${o.path}", which must start with "/" (e.g. "/${o.path}"), relative to the resource's path`);
    }
    const kind = o.kind ?? base?.kind ?? (o.path?.includes(':id') ? 'item' : 'collection');
    const op: Operation = {
      name,
      method,
      kind,
      path: options.path + (o.path ?? base?.path ?? ''),
      status: o.status ?? base?.status ?? (method === 'POST' ? 201 : 200),
      description: o.description ?? base?.description(options.name) ?? name,
      security: o.security ?? options.security ?? null,
      securityMessage: o.securityMessage ?? (o.security ? undefined : options.securityMessage),
      securityPostDenormalize: o.securityPostDenormalize ?? null,
      securityPostDenormalizeMessage: o.securityPostDenormalizeMessage,
      read: o.read ?? base?.read ?? method !== 'POST',
      deserialize: o.deserialize ?? base?.deserialize ?? (method !== 'GET' && method !== 'DELETE'),
      validate: o.validate ?? base?.validate ?? (method !== 'GET' && method !== 'DELETE'),
      write: o.write ?? base?.write ?? method !== 'GET',
      serialize: o.serialize ?? base?.serialize ?? true,
      merge: base?.merge ?? false,
      provider: o.provider ? toProvider(o.provider) : defaultProvider,
      processor: o.processor ? toProcessor(o.processor) : defaultProcessor,
      inputMediaTypes: o.inputMediaTypes ?? base?.inputMediaTypes ?? ['application/ld+json', 'application/json'],
      get resource() {
        return resource.value!;
      },
    };
    operations.push(op);
  }
  return operations;
}

/**
 * Declares a resource. The result is plain, frozen metadata that the router, the pipeline, the
 * formats, the docs, the security layer and the profiler all read; nothing is hand-coded per route.
 */
export function defineResource(options: ResourceOptions): ResourceDefinition {
  checkPath(options);
  const required = new Set(options.schema.required ?? []);
  const relations = options.relations ?? {};
  const properties: PropertyDefinition[] = Object.entries(options.schema.properties).map(([name, declared]) => {
    const relation = relations[name] ?? null;
    // Columns are the default provider's and processor's (integer-range.ts).
    const schema = relation || options.provider || options.processor ? declared : withColumnFormat(declared);
    const { type, nullable } = typeOf(schema, relation);
    return {
      name,
      column: options.columns?.[name] ?? (relation ? `${snake(name)}_id` : snake(name)),
      schema,
      type,
      readOnly: (schema as unknown as Record<symbol, unknown>)[ReadonlyKind] === 'Readonly' || schema.readOnly === true,
      writeOnly: schema.writeOnly === true,
      required: required.has(name),
      nullable,
      relation,
    };
  });
  for (const name of Object.keys(relations)) {
    if (!properties.some((p) => p.name === name)) throw new DefinitionError(`Resource "${options.name}": relation "${name}" is not a schema property`);
  }
  if (!properties.some((p) => p.name === 'id')) throw new DefinitionError(`Resource "${options.name}": the schema needs an "id" property`);

  const outputProps = properties.filter((p) => !p.writeOnly);
  const inputProps = properties.filter((p) => !p.readOnly);
  const unknownFields = options.unknownFields ?? 'reject';
  const outputSchema = Type.Object(Object.fromEntries(outputProps.map((p) => [p.name, p.schema])), {
    additionalProperties: false,
  });
  const inputSchema = Type.Object(Object.fromEntries(inputProps.map((p) => [p.name, p.schema])), {
    additionalProperties: unknownFields === 'ignore',
  });
  // Object.fromEntries keeps TypeBox's Optional markers, so `required` follows the declaration.

  const holder: { value: ResourceDefinition | null } = { value: null };
  const operations = resolveOperations(options, holder);
  const segment = options.path.split('/').filter(Boolean).pop() ?? options.name.toLowerCase();
  const definition: ResourceDefinition = {
    name: options.name,
    path: options.path,
    table: options.table ?? segment.replace(/-/g, '_'),
    description: options.description ?? '',
    schema: options.schema,
    properties,
    property: new Map(properties.map((p) => [p.name, p])),
    relations: properties.filter((p) => p.relation !== null),
    operations,
    filters: options.filters ?? [],
    pagination: {
      enabled: options.pagination?.enabled ?? true,
      itemsPerPage: options.pagination?.itemsPerPage ?? 30,
      maximumItemsPerPage: options.pagination?.maximumItemsPerPage ?? 100,
      clientItemsPerPage: options.pagination?.clientItemsPerPage ?? true,
      partial: options.pagination?.partial ?? false,
      clientPartial: options.pagination?.clientPartial ?? false,
    },
    unknownFields,
    validate: options.validate ?? null,
    outputSchema,
    inputSchema,
  };
  holder.value = definition;
  for (const filter of definition.filters) filter.check?.(definition);
  return Object.freeze(definition);
}
