import { HttpError } from '../../kernel/http-error.ts';

/** The 400 for a filter value that cannot be used; the value never reaches SQL. */
export function invalidFilter(parameter: string, value: string, expected: string): HttpError {
  return HttpError.of('invalid_filter', { parameter, value, expected });
}

const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

export function parseNumber(parameter: string, value: string): number {
  if (!NUMBER.test(value)) throw invalidFilter(parameter, value, 'expected a number');
  return Number(value);
}

const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** Dates compare as ISO-8601 text (how the columns store them), so the value must be ISO-8601. */
export function parseDate(parameter: string, value: string): string {
  if (!DATE.test(value) || Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value))) {
    throw invalidFilter(parameter, value, 'expected a date such as 2024-01-31');
  }
  return value;
}

export function parseBoolean(parameter: string, value: string): boolean {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalidFilter(parameter, value, 'expected true, false, 1 or 0');
}
