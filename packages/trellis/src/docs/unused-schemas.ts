import type { JsonSchema } from './json-schema.ts';

const PREFIX = '#/components/schemas/';

/** Every `$ref` to a component schema anywhere in `value`. */
function refsIn(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) refsIn(v, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith(PREFIX)) out.add(v.slice(PREFIX.length));
      else refsIn(v, out);
    }
  }
}

/**
 * The component schemas the document refers to, from its paths and other components, and from
 * those schemas in turn. Every resource gets the full set of shapes (resource-schemas.ts), but a
 * resource without writes has no input to describe: an unused component is a `spectral:oas`
 * warning (`oas3-unused-component`) and a type no generated client can reach.
 */
export function usedSchemas(doc: JsonSchema, schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const used = new Set<string>();
  const { components, ...rest } = doc;
  const { schemas: _all, ...otherComponents } = (components ?? {}) as Record<string, unknown>;
  refsIn(rest, used);
  refsIn(otherComponents, used);
  const pending = [...used];
  while (pending.length > 0) {
    const found = new Set<string>();
    refsIn(schemas[pending.pop()!], found);
    for (const name of found) {
      if (!used.has(name)) {
        used.add(name);
        pending.push(name);
      }
    }
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}
