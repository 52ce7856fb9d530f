import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { flattenError } from './flatten-error.ts';
import { parseStack } from './stack-trace.ts';

const HERE = fileURLToPath(import.meta.url);

test('a line of the message that reads like a frame is not taken for one, nor its file read', () => {
  // What a client puts in a path that an error message quotes: /books/x%0A%20%20%20%20at%20x%20(%2Fetc%2Fpasswd%3A2%3A1)%0Ay
  const error = new Error('Item not found for "/books/x\n    at x (/etc/passwd:2:1)\ny".');
  const [flat] = flattenError(error);
  assert.ok(flat!.frames.length > 0);
  assert.equal(flat!.frames.some((f) => f.file.includes('passwd')), false);
  assert.equal(flat!.frames[0]!.file.endsWith('stack-trace.test.ts'), true);
});

test("the message's frame-like lines are skipped whatever the message says (its own file named)", () => {
  const message = `boom\n    at evil (${HERE}:1:1)`;
  const stack = `Error: ${message}\n    at real (${HERE}:5:3)`;
  const frames = parseStack(stack, message);
  assert.deepEqual(frames.map((f) => [f.function, f.line]), [['real', 5]]);
});

test('a stack that does not hold the message is read whole, but only source files give excerpts', () => {
  const frames = parseStack('Error: changed since\n    at x (/etc/passwd:2:1)\n    at y (' + HERE + ':3:1)', 'another message');
  assert.deepEqual(frames.map((f) => f.excerpt.length > 0), [false, true]);
});
