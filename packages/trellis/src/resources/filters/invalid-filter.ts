import { HttpError } from '../../kernel/http-error.ts';
import type { PropertyDefinition } from '../define-resource.ts';
import { fitsColumn, integerRange } from '../integer-range.ts';

/** The 400 for a filter value that cannot be used; the value never reaches SQL. */
export function invalidFilter(parameter: string, value: string, expected: string): HttpError {
  return HttpError.of('invalid_filter', { parameter, value, expected });
}

const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

export function parseNumber(parameter: string, value: string): number {
  if (!NUMBER.test(value)) throw invalidFilter(parameter, value, 'expected a number');
  return Number(value);
}

/**
 * A number compared with `property`'s column: for an integer property, a whole number its column
 * holds (integer-range.ts), or PostgreSQL would refuse the query where SQLite answers.
 */
export function parsePropertyNumber(parameter: string, value: string, property: PropertyDefinition): number {
  const n = parseNumber(parameter, value);
  if (property.type !== 'integer') return n;
  const range = integerRange(property.schema);
  if (!fitsColumn(n, range)) throw invalidFilter(parameter, value, `expected a whole number from ${range.min} to ${range.max}`);
  return n;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))?)?$/;

/**
 * Whether the fields of a date the pattern matched name a real calendar day and time (RFC 3339
 * §5.7): V8's Date.parse rolls 2020-02-30 over to 1 March, and the same date in a body was a 422.
 * Seconds may be 60 (a leap second).
 */
function isCalendarDate(m: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v))) as number[];
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day) return false;
  return hour! <= 23 && minute! <= 59 && second! <= 60 && offsetHour! <= 23 && offsetMinute! <= 59;
}

/** Dates compare as ISO-8601 text (how the columns store them), so the value must be ISO-8601, and a real date. */
export function parseDate(parameter: string, value: string): string {
  const m = DATE.exec(value);
  if (m === null || !isCalendarDate(m)) throw invalidFilter(parameter, value, 'expected a date such as 2024-01-31');
  return value;
}

export function parseBoolean(parameter: string, value: string): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalidFilter(parameter, value, 'expected true, false, 1 or 0');
}
