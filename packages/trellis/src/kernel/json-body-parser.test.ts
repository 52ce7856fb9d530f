import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonBody } from './json-body-parser.ts';

test('valid JSON parses; prototype-poisoning keys are dropped', () => {
  assert.deepEqual(parseJsonBody('{"a":[1,2],"__proto__":{"x":1},"constructor":{"prototype":{}}}'), { a: [1, 2] });
});

test('syntax errors say where, never quote the input', () => {
  assert.throws(() => parseJsonBody('{"email":"a",\n "password":hunter2secret}'), {
    message: 'Syntax error in the JSON request body at line 2, column 13.',
  });
  assert.throws(() => parseJsonBody('{"a": '), { message: 'Syntax error in the JSON request body: unexpected end of input.' });
  assert.throws(() => parseJsonBody('{"a": "unterminated'), { message: 'Syntax error in the JSON request body: unexpected end of input.' });
  assert.throws(() => parseJsonBody('[1, 2,]'), { message: 'Syntax error in the JSON request body at line 1, column 7.' });
  assert.throws(() => parseJsonBody('{"a": 01}'), { message: 'Syntax error in the JSON request body at line 1, column 8.' });
  assert.throws(() => parseJsonBody('{"a": 1} x'), { message: 'Syntax error in the JSON request body at line 1, column 10.' });
  assert.throws(() => parseJsonBody('{"a": "\\x"}'), { message: 'Syntax error in the JSON request body at line 1, column 9.' });
  assert.throws(() => parseJsonBody("{'a': 1}"), { message: 'Syntax error in the JSON request body at line 1, column 2.' });
  assert.throws(() => parseJsonBody('  '), { message: 'The request body is empty; a JSON document was expected.' });
});

test('a body nested deeper than the limit is a 400 before anything parses it; strings do not count', async () => {
  const { nestsDeeperThan } = await import('./json-body-parser.ts');
  assert.throws(() => parseJsonBody('['.repeat(65) + ']'.repeat(65)), { message: 'The JSON request body nests deeper than 64 levels.' });
  assert.throws(() => parseJsonBody('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)), { message: 'The JSON request body nests deeper than 64 levels.' });
  assert.throws(() => parseJsonBody('['.repeat(10_000)), { message: 'The JSON request body nests deeper than 64 levels.' });
  assert.ok(Array.isArray(parseJsonBody('['.repeat(64) + ']'.repeat(64))));
  assert.deepEqual(parseJsonBody(`{"s":"${'['.repeat(500)}\\"["}`), { s: `${'['.repeat(500)}"[` });
  assert.throws(() => parseJsonBody('[[[1]]]', 2), { message: 'The JSON request body nests deeper than 2 levels.' });
  assert.equal(nestsDeeperThan('[[]]', 2), false);
  assert.equal(nestsDeeperThan('[[[]]]', 2), true);
});
