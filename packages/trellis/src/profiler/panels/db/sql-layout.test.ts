import { test } from 'node:test';
import assert from 'node:assert/strict';
import { format } from 'sql-formatter';
import { isLayoutKept, layoutsKept, loadSqlFormatter, MAX_LAYOUTS, sqlLayout } from './sql-layout.ts';

const asFormatted = (sql: string) => format(sql, { language: 'sql', keywordCase: 'upper', tabWidth: 2 });

test('before sql-formatter is loaded the SQL is shown as run, and that is not kept', () => {
  const sql = 'select 1 from "never_loaded"';
  assert.equal(sqlLayout(sql), sql);
  assert.equal(layoutsKept(), 0);
});

test('a statement is laid out once and the same layout is given again; unparseable SQL is shown as run', async () => {
  await loadSqlFormatter();
  const sql = 'select "id", "title" from "books" where "id" = ? limit ?';
  assert.equal(sqlLayout(sql), asFormatted(sql));
  assert.match(sqlLayout(sql), /^SELECT\n  "id",/);
  assert.equal(sqlLayout(sql), asFormatted(sql));
  const broken = 'select ( from';
  assert.equal(sqlLayout(broken), broken);
});

test('kept layouts are bounded in count, the oldest going first; long statements are laid out but not kept', async () => {
  await loadSqlFormatter();
  for (let i = 0; i < MAX_LAYOUTS + 50; i++) sqlLayout(`select ${i} from "t${i}"`);
  assert.equal(layoutsKept(), MAX_LAYOUTS);
  assert.equal(sqlLayout('select 3 from "t3"'), asFormatted('select 3 from "t3"'));
  const long = `select * from "books" where "id" in (${Array.from({ length: 2000 }, (_, i) => i).join(', ')})`;
  assert.equal(sqlLayout(long), asFormatted(long));
  assert.equal(isLayoutKept(long), false);
  assert.equal(isLayoutKept('select 3 from "t3"'), true);
  assert.equal(isLayoutKept('select 4 from "t4"'), false);
});

test('a short statement whose layout is long (nested subqueries) is laid out but not kept', async () => {
  await loadSqlFormatter();
  let sql = 'select 1';
  for (let i = 0; i < 60; i++) sql = `select * from (${sql}) as "t${i}" where "t${i}"."a" = ?`;
  assert.ok(sql.length <= 4096);
  const layout = sqlLayout(sql);
  assert.ok(layout.length > 16_384, `layout of ${layout.length} characters`);
  assert.equal(isLayoutKept(sql), false);
  assert.equal(sqlLayout(sql), layout);
  sqlLayout('select "kept" from "after"');
  assert.equal(isLayoutKept('select "kept" from "after"'), true);
});
