import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runnableSql } from './runnable-sql.ts';

test('parameters written in, as literals, outside quotes', () => {
  assert.equal(runnableSql('select * from "books" where "id" = ? and "title" like ? and "x" = \'?\'', [1, "O'Brien%"]), 'select * from "books" where "id" = 1 and "title" like \'O\'\'Brien%\' and "x" = \'?\'');
  assert.equal(runnableSql('select * from books where id = $2 and ok = $1', [true, 7]), 'select * from books where id = 7 and ok = TRUE');
  assert.equal(runnableSql('insert into a values (?, ?, ?)', [null, { cut: 'ab', length: 5000 }, { binary: 12 }]), "insert into a values (NULL, 'ab…' /* 5000 characters, cut */, NULL /* binary, 12 bytes */)");
  assert.equal(runnableSql('select ?', []), 'select ?', 'a missing parameter stays a placeholder');
});
