import type { PropertyDefinition, ResourceDefinition } from '../resources/define-resource.ts';
import type { ResourceRegistry } from '../resources/resource-registry.ts';

type Schema = Record<string, unknown>;

function nonNull(schema: Schema): Schema {
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as Schema[]) : [schema];
  return variants.find((v) => v.type !== 'null') ?? schema;
}

function numberExample(s: Schema, integer: boolean): number {
  const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
  const max = typeof s.maximum === 'number' ? s.maximum : Number.POSITIVE_INFINITY;
  const value = Math.min(Math.max(min, integer ? 1 : 9.99), max);
  return integer ? Math.ceil(value) : value;
}

/**
 * A value that passes the property's schema, for the docs' examples: the schema's own
 * `examples`/`default` when it declares one, else one built from its type and format. Undefined
 * when no honest value can be made up (a `pattern`): Swagger UI then generates one from the schema.
 */
export function exampleValue(resource: ResourceDefinition, property: PropertyDefinition, registry: ResourceRegistry): unknown {
  const schema = property.schema as unknown as Schema;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (property.relation !== null) {
    const target = registry.get(property.relation);
    return target ? `${target.path}/1` : undefined;
  }
  const s = nonNull(schema);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.const !== undefined) return s.const;
  switch (property.type) {
    case 'integer':
      return numberExample(s, true);
    case 'number':
      return numberExample(s, false);
    case 'boolean':
      return true;
    case 'date':
      return '2024-01-31';
    case 'date-time':
      return '2024-01-31T12:00:00+00:00';
    case 'string': {
      if (typeof s.pattern === 'string') return undefined;
      if (s.format === 'email') return 'user@example.com';
      if (s.format === 'uri') return 'https://example.com/';
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      const text = `${resource.name} ${property.name}`.padEnd(min, '.');
      return typeof s.maxLength === 'number' && s.maxLength < text.length ? 'x'.repeat(Math.max(1, min)) : text;
    }
    default:
      return undefined;
  }
}
