import { test } from 'node:test';
import assert from 'node:assert/strict';
import { format } from 'sql-formatter';
import { layoutsKept, loadSqlFormatter, MAX_LAYOUTS, sqlLayout } from './sql-layout.ts';

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
  const before = layoutsKept();
  assert.equal(sqlLayout(long), asFormatted(long));
  assert.equal(layoutsKept(), before);
});
