import type { TSchema } from '@sinclair/typebox';

/**
 * What the column of an `integer` property holds. `Type.Integer()` is an SQL `integer` (what the
 * migrations create for it): 32 bits on PostgreSQL, which refuses anything outside with an error
 * (SQLState 22003) where SQLite stores it. So a value outside is refused before it reaches SQL,
 * the same on both: a body's is a violation (422), a filter's a 400, an identifier's a 404 (no
 * such item can exist). A schema saying `format: 'int64'` (a `bigint` column), or declaring a
 * `minimum` or `maximum` past 32 bits, is a `bigint`: what a JavaScript number holds exactly.
 * Resources with a provider or processor of their own have no column to fit: their integers are
 * left as declared.
 */
export interface IntegerRange {
  readonly min: number;
  readonly max: number;
}

export const INT32: IntegerRange = { min: -(2 ** 31), max: 2 ** 31 - 1 };
export const INT64: IntegerRange = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** The integer branch of a property's schema (a nullable integer is `anyOf: [integer, null]`), or null. */
function integerSchema(schema: TSchema): TSchema | null {
  if (schema.type === 'integer') return schema;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).find((s) => s.type === 'integer') ?? null;
  return null;
}

/** Whether an integer schema says it holds more than 32 bits: int64, or bounds past them. */
function isWide(schema: TSchema): boolean {
  if (schema.format === 'int64') return true;
  const low = [schema.minimum, schema.exclusiveMinimum].filter((b): b is number => typeof b === 'number');
  const high = [schema.maximum, schema.exclusiveMaximum].filter((b): b is number => typeof b === 'number');
  return low.some((b) => b < INT32.min) || high.some((b) => b > INT32.max);
}

/**
 * The range of an integer property's column: 32 bits where its schema says `int32` (as
 * `withColumnFormat` makes a column's say), else what a JavaScript number holds exactly.
 */
export function integerRange(schema: TSchema): IntegerRange {
  return integerSchema(schema)?.format === 'int32' ? INT32 : INT64;
}

/**
 * The property's schema with the format its column implies (`int32`, OpenAPI 3.1 §4.2's data
 * type formats) where it names none: ajv-formats then refuses a body value the column cannot
 * hold, and the API description says what the API takes. A schema with a format is kept as is.
 */
export function withColumnFormat(schema: TSchema): TSchema {
  const format = (s: TSchema): TSchema => (s.type === 'integer' && s.format === undefined ? { ...s, format: isWide(s) ? 'int64' : 'int32' } : s);
  if (schema.type === 'integer') return format(schema);
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((s: TSchema) => s.type === 'integer' && s.format === undefined)) return { ...schema, anyOf: schema.anyOf.map(format) };
  return schema;
}

/** Whether `n` is a whole number the column holds. */
export function fitsColumn(n: number, range: IntegerRange): boolean {
  return Number.isInteger(n) && n >= range.min && n <= range.max;
}
