import { test } from 'node:test';
import assert from 'node:assert/strict';
import { migrationSlug } from './make-migration-command.ts';

test('a migration name becomes lower-case words joined by dashes', () => {
  assert.equal(migrationSlug('  Add due date to Tasks! '), 'add-due-date-to-tasks');
  assert.equal(migrationSlug('***'), '');
});

test('a long name is cut to 80 characters, never at a dash, so the file name stays under any file system\'s limit', () => {
  const slug = migrationSlug('x'.repeat(300));
  assert.equal(slug, 'x'.repeat(80));
  assert.equal(migrationSlug(`${'a'.repeat(79)} b`), 'a'.repeat(79));
});
