import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestCookies, responseCookies } from './cookies.ts';

test('cookie names kept, values redacted', () => {
  assert.deepEqual(requestCookies('sid=abc; theme=dark;  empty='), { sid: '[redacted]', theme: '[redacted]', empty: '[redacted]' });
  assert.deepEqual(requestCookies(undefined), {});
  assert.deepEqual(responseCookies(['sid=abc; Path=/; HttpOnly; SameSite=Lax', 'x=1']), { sid: '[redacted]; Path=/; HttpOnly; SameSite=Lax', x: '[redacted]' });
  assert.deepEqual(responseCookies('=nameless'), {});
});
