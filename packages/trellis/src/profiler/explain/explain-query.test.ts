import { test } from 'node:test';
import assert from 'node:assert/strict';
import { notExplainable } from './explain-query.ts';
import { ExplainSigner } from './explain-signer.ts';

test('only a single SELECT that cannot write is explained', () => {
  assert.equal(notExplainable('select * from books where id = ?'), null);
  assert.equal(notExplainable('  WITH t AS (SELECT 1) SELECT * FROM t;  '), null);
  assert.equal(notExplainable("select * from books where title = 'update; drop'"), null, 'words inside literals do not count');
  assert.equal(notExplainable('insert into books (title) values (?)'), 'only a SELECT is explained');
  assert.equal(notExplainable('select 1; drop table books'), 'a query of more than one statement is not explained');
  assert.equal(notExplainable('with d as (delete from books returning *) select * from d'), 'a query that may write is not explained');
  assert.equal(notExplainable('select * from books for update'), 'a query that may write is not explained');
});

test('signatures cover the profile, the query number and its text', () => {
  const signer = new ExplainSigner('app-secret');
  const sig = signer.sign('abc123', 2, 'select 1');
  assert.equal(signer.verify('abc123', 2, 'select 1', sig), true);
  assert.equal(signer.verify('abc123', 3, 'select 1', sig), false);
  assert.equal(signer.verify('abc124', 2, 'select 1', sig), false);
  assert.equal(signer.verify('abc123', 2, 'select 2', sig), false);
  assert.equal(signer.verify('abc123', 2, 'select 1', `${sig.slice(0, -1)}A`), sig.endsWith('A'));
  assert.equal(new ExplainSigner('app-secret').verify('abc123', 2, 'select 1', sig), true, 'the same secret signs alike in every process');
  assert.equal(new ExplainSigner(null).verify('abc123', 2, 'select 1', new ExplainSigner(null).sign('abc123', 2, 'select 1')), false, 'random keys differ');
});
