import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonLimitBroken, parseJsonBody } from './json-body-parser.ts';

/** The depth half of the scan. */
const nestsDeeperThan = (text: string, max: number): boolean => jsonLimitBroken(text, max) === 'depth';

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
  assert.throws(() => parseJsonBody('['.repeat(65) + ']'.repeat(65)), { message: 'The JSON request body nests deeper than 64 levels.' });
  assert.throws(() => parseJsonBody('{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)), { message: 'The JSON request body nests deeper than 64 levels.' });
  assert.throws(() => parseJsonBody('['.repeat(10_000)), { message: 'The JSON request body nests deeper than 64 levels.' });
  assert.ok(Array.isArray(parseJsonBody('['.repeat(64) + ']'.repeat(64))));
  assert.deepEqual(parseJsonBody(`{"s":"${'['.repeat(500)}\\"["}`), { s: `${'['.repeat(500)}"[` });
  assert.throws(() => parseJsonBody('[[[1]]]', 2), { message: 'The JSON request body nests deeper than 2 levels.' });
  assert.equal(nestsDeeperThan('[[]]', 2), false);
  assert.equal(nestsDeeperThan('[[[]]]', 2), true);
});

/** The depth check as it was first written, character by character: the reference for the fast one. */
function nestsDeeperThanSlowly(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

test('the depth check skips string contents natively and agrees with a character-by-character scan on any text', () => {
  // Texts made of the characters that matter (brackets, quotes, backslashes), valid JSON or not.
  const awkward = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ',', ':', '\n') , maxLength: 80 });
  fc.assert(
    fc.property(fc.oneof(awkward, fc.json()), fc.integer({ min: 0, max: 6 }), (text, max) => {
      assert.equal(nestsDeeperThan(text, max), nestsDeeperThanSlowly(text, max), JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
  // Escaped quotes and runs of backslashes before a quote.
  assert.equal(nestsDeeperThan('["\\\\", [[ "\\\"[[[[" ]]]', 3), false);
  assert.equal(nestsDeeperThan('["\\\\", [[ "\\\"[[[[" ]]]', 2), true);
  assert.equal(nestsDeeperThan('[[["\\"]]]', 2), true);
  assert.equal(nestsDeeperThan('[[["\\"]', 3), false);
  // A 900 KB string with brackets and escaped quotes inside, then real nesting after it.
  const long = `{"bio":"${'[{\\\"'.repeat(150_000)}","n":${'['.repeat(65)}${']'.repeat(65)}}`;
  assert.equal(nestsDeeperThan(long, 64), true);
  assert.equal(nestsDeeperThan(long, 66), false);
  assert.equal(nestsDeeperThan(long, 66), nestsDeeperThanSlowly(long, 66));
});

test('an object of more members than the limit is a 400 before anything parses it; arrays and strings do not count', () => {
  const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;
  assert.throws(() => parseJsonBody(members(1001)), { message: 'The JSON request body has an object of more than 1000 members.' });
  assert.equal(Object.keys(parseJsonBody(members(1000)) as object).length, 1000);
  assert.throws(() => parseJsonBody(`{"a":{"b":${members(4)}}}`, 64, 3), { message: 'The JSON request body has an object of more than 3 members.' });
  // An array of many elements, and commas inside strings, are not members.
  assert.equal((parseJsonBody(`[${'1,'.repeat(5000)}1]`) as unknown[]).length, 5001);
  assert.deepEqual(parseJsonBody(`{"s":"${','.repeat(5000)}"}`), { s: ','.repeat(5000) });
  // Members of an object nested in an array, after the array's own commas.
  assert.throws(() => parseJsonBody(`[1,2,3,${members(4)}]`, 64, 3), { message: 'The JSON request body has an object of more than 3 members.' });
  assert.doesNotThrow(() => parseJsonBody(`[1,2,3,4,5,{"a":1,"b":2}]`, 64, 3));
});

/** Members per object counted after a full parse: the reference for the scan. */
function widestObject(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return Math.max(Array.isArray(value) ? 0 : Object.keys(value).length, ...children.map(widestObject));
}

test('the members check agrees with a parse on any JSON text', () => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 4 }), fc.integer({ min: 1, max: 6 }), (text, max) => {
      const broken = jsonLimitBroken(text, 64, max);
      // JSON.parse keeps one member per repeated key: the scan counts what was sent, never fewer.
      const sent = widestObject(JSON.parse(text));
      if (sent > max) assert.equal(broken, 'members', text);
      if (broken === null) assert.ok(sent <= max, text);
    }),
    { numRuns: 3000 },
  );
});
