/** A JSON Schema (2020-12) object as OpenAPI 3.1 embeds it. */
export type JsonSchema = Record<string, unknown>;

/** `#/components/schemas/<name>`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * A plain copy of a TypeBox schema: TypeBox marks kinds and modifiers with symbol keys, which
 * JSON drops; the copy keeps only what a JSON Schema reader sees.
 */
export function plainSchema(schema: unknown): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/** Adds `null` to a schema's accepted values (JSON Schema has no `nullable`; OpenAPI 3.1 dropped it). */
export function orNull(schema: JsonSchema): JsonSchema {
  const { description, ...rest } = schema;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}
