import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backTo } from './theme-route.ts';
import { withTheme } from './profiler-theme.ts';

const ORIGIN = 'http://127.0.0.1:8000';

test('back to the profiler page the switch was clicked on, with its query', () => {
  assert.equal(backTo(`${ORIGIN}/_profiler/abc123?panel=db`, ORIGIN), '/_profiler/abc123?panel=db');
  assert.equal(backTo(`${ORIGIN}/_profiler`, ORIGIN), '/_profiler');
  assert.equal(backTo('http://localhost/_profiler/abc123', 'http://localhost:80'), '/_profiler/abc123', 'a default port is no other origin');
});

test('never an open redirect: any other origin, path or spelling goes to the profiler home', () => {
  for (const referer of [
    undefined,
    '',
    'not a url',
    'https://evil.example/_profiler/',
    'http://127.0.0.1:8001/_profiler/',
    `${ORIGIN}/books`,
    `${ORIGIN}/_profilerx`,
    `${ORIGIN}/_profiler/theme/dark`,
    'javascript:alert(1)//127.0.0.1:8000/_profiler/',
    `//evil.example/_profiler/`,
    `${ORIGIN}/_profiler/${'a'.repeat(3000)}`,
    ['array'],
  ]) {
    assert.equal(backTo(referer, ORIGIN), '/_profiler/', String(referer).slice(0, 60));
  }
});

test("a dot segment in the Referer is resolved by the URL parser before the path is judged", () => {
  assert.equal(backTo(`${ORIGIN}/_profiler/../books`, ORIGIN), '/_profiler/');
});

test('the theme goes on the root of a profiler page only', () => {
  const page = '<!DOCTYPE html>\n<html lang="en"><head></head><body><html lang="en"></body></html>';
  assert.equal(withTheme(page, 'dark'), '<!DOCTYPE html>\n<html lang="en" data-theme="dark"><head></head><body><html lang="en"></body></html>');
  assert.equal(withTheme(page, 'auto'), page);
  assert.equal(withTheme('<p><html lang="en"></p>', 'dark'), '<p><html lang="en"></p>');
  assert.equal(withTheme('{"html":"<html lang=\\"en\\">"}', 'light'), '{"html":"<html lang=\\"en\\">"}');
});

test('the cookie is read by its exact name; the first one wins; a value we never set is auto', async () => {
  const { themeOf } = await import('./profiler-theme.ts');
  const of = (cookie: string | undefined) => themeOf({ headers: cookie === undefined ? {} : { cookie } } as never);
  assert.equal(of(undefined), 'auto');
  assert.equal(of('a=1; trellis_profiler_theme=dark'), 'dark');
  assert.equal(of('trellis_profiler_theme=light; trellis_profiler_theme=dark'), 'light');
  assert.equal(of('xtrellis_profiler_theme=dark'), 'auto');
  assert.equal(of('trellis_profiler_theme=DARK'), 'auto');
  assert.equal(of('trellis_profiler_theme="dark"'), 'auto');
});
