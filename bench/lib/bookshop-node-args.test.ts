import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bookshopNodeArgs } from './bookshop-node-args.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const startOf = (file: string) => (JSON.parse(readFileSync(join(root, file), 'utf8')) as { scripts: { start: string } }).scripts.start;

test("the bench runs the bookshop with its start script's Node options: a bounded heap", () => {
  assert.deepEqual(bookshopNodeArgs(root), ['--max-old-space-size=512']);
});

test('`npm start` at the root runs the bookshop with the same options as its own start script', () => {
  assert.equal(startOf('package.json'), `node ${bookshopNodeArgs(root).join(' ')} examples/bookshop/src/main.ts`);
  assert.equal(startOf('examples/bookshop/package.json'), `node ${bookshopNodeArgs(root).join(' ')} src/main.ts`);
});
