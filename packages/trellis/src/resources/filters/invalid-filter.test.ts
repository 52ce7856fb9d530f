import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HttpError } from '../../kernel/http-error.ts';
import { parseDate } from './invalid-filter.ts';

test('real dates and date-times pass as they came', () => {
  for (const value of ['2024-01-31', '2024-02-29', '2000-02-29', '2024-12-31T23:59', '2024-06-30T23:59:60Z', '2024-01-31 08:00:00.123+05:30', '2024-01-31T00:00:00-12:00']) {
    assert.equal(parseDate('publicationDate[after]', value), value);
  }
});

test('dates the calendar has not are a 400 with the exact message, as the same date in a body is a 422', () => {
  for (const value of ['2020-02-30', '2023-02-29', '1900-02-29', '2024-04-31', '2024-13-01', '2024-00-10', '2024-01-00', '2024-01-31T24:00', '2024-01-31T23:60', '2024-01-31T23:59:61', '2024-01-31T10:00+24:00', '2024-1-31', 'yesterday']) {
    assert.throws(
      () => parseDate('publicationDate[after]', value),
      (error: unknown) => error instanceof HttpError && error.status === 400 && error.message === `Invalid value "${value}" for the query parameter "publicationDate[after]": expected a date such as 2024-01-31.`,
      value,
    );
  }
});
