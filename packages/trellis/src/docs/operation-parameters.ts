import type { FilterParameter } from '../resources/filter.ts';
import type { Operation } from '../resources/operation.ts';
import { embedPaths, MAX_EMBED_DEPTH } from '../resources/embed-paths.ts';
import type { ResourceRegistry } from '../resources/resource-registry.ts';
import type { JsonSchema } from './json-schema.ts';

function filterSchema(p: FilterParameter): JsonSchema {
  const base: JsonSchema = p.type === 'date' ? { type: 'string', format: 'date' } : { type: p.type };
  return p.enum ? { ...base, enum: [...p.enum] } : base;
}

/** `/books/:id` → `/books/{id}` (OpenAPI path templating, §4.8.2). */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * The parameters of one operation: path variables, and for collection reads the pagination
 * switches and every filter parameter (a repeatable one also as `name[]`, as API Platform
 * documents them), plus `embed` where the resource has relations.
 */
export function operationParameters(op: Operation, registry: ResourceRegistry): JsonSchema[] {
  const resource = op.resource;
  const out: JsonSchema[] = [];
  for (const [, name] of op.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    const idType = resource.property.get('id')!.type;
    const schema = name === 'id' && (idType === 'integer' || idType === 'number') ? { type: 'integer', minimum: 1 } : { type: 'string' };
    out.push({ name, in: 'path', required: true, description: name === 'id' ? `The ${resource.name} identifier.` : name, schema });
  }
  const collectionRead = op.kind === 'collection' && op.method === 'GET';
  if (collectionRead) {
    const pagination = resource.pagination;
    if (pagination.enabled) {
      out.push({ name: 'page', in: 'query', required: false, description: 'The page of the collection, from 1.', schema: { type: 'integer', minimum: 1, default: 1 } });
      if (pagination.clientItemsPerPage) {
        out.push({
          name: 'itemsPerPage',
          in: 'query',
          required: false,
          description: `Items per page; values above ${pagination.maximumItemsPerPage} are capped.`,
          schema: { type: 'integer', minimum: 1, default: pagination.itemsPerPage },
        });
      }
      if (pagination.clientPartial) {
        out.push({ name: 'partial', in: 'query', required: false, description: 'Partial pagination: no total count and no last page.', schema: { type: 'boolean', default: pagination.partial } });
      }
    }
    for (const filter of resource.filters) {
      for (const p of filter.parameters(resource)) {
        out.push({ name: p.name, in: 'query', required: false, description: p.description, schema: filterSchema(p) });
        if (p.multiple) {
          out.push({ name: `${p.name}[]`, in: 'query', required: false, description: `${p.description} Repeat to match any of several values.`, schema: { type: 'array', items: filterSchema(p) }, style: 'form', explode: true });
        }
      }
    }
  }
  const relations = embedPaths(registry, resource);
  if (op.serialize && relations.length > 0 && op.method !== 'DELETE') {
    out.push({
      name: 'embed',
      in: 'query',
      required: false,
      description: `Relations to embed in the response instead of their IRIs, comma-separated; a dotted path (up to ${MAX_EMBED_DEPTH} relations) embeds the relations of an embedded resource. Relations the user may not read stay IRIs.`,
      schema: { type: 'array', items: { type: 'string', enum: relations } },
      style: 'form',
      explode: false,
    });
  }
  // RFC 9110 §13.1.1: writes to an item may be made conditional on the representation read.
  if (op.kind === 'item' && op.write && op.read) {
    out.push({ name: 'If-Match', in: 'header', required: false, description: 'ETags of the representation the change is based on; 412 when none is current.', schema: { type: 'string' } });
  }
  if (op.method === 'GET') {
    out.push({ name: 'If-None-Match', in: 'header', required: false, description: 'ETags already held; 304 when one is current.', schema: { type: 'string' } });
  }
  return out;
}
