/**
 * The contract every SqliteBatchSink passes (see sqlite-batch-sink.ts): order, commit before
 * resolving, taken-token flags, all-or-nothing batches, purge and close.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseSync } from 'node:sqlite';
import type { SqliteBatchSink } from './sqlite-batch-sink.ts';
import type { ProfileRow } from './sqlite-profile-inserter.ts';

/** Opens a fresh database, and a sink writing to it with the given retention; `db` is a reader connection. */
export type SinkFactory = (maxProfiles: number) => { sink: SqliteBatchSink; db: DatabaseSync };

const T0 = Date.UTC(2026, 10, 22, 8, 5, 9);
const row = (token: string, time = T0): ProfileRow => [token, null, '127.0.0.1', 'GET', `http://h/${token}`, time, 200, 1, JSON.stringify({ token })];
const tokens = (db: DatabaseSync) => db.prepare('SELECT token FROM profiles ORDER BY seq').all().map((r) => (r as { token: string }).token);

export function sqliteBatchSinkContract(name: string, open: SinkFactory): void {
  describe(`SqliteBatchSink contract: ${name}`, () => {
    it('commits batches in order before resolving, flagging tokens already stored', async () => {
      const { sink, db } = open(100);
      try {
        const first = sink.insert([row('aaaaa1'), row('aaaaa2')], 0, T0);
        const second = sink.insert([row('aaaaa3'), row('aaaaa1')], 0, T0);
        assert.deepEqual(await first, [false, false]);
        assert.deepEqual(await second, [false, true]);
        assert.deepEqual(tokens(db), ['aaaaa1', 'aaaaa2', 'aaaaa3']);
      } finally {
        await sink.close();
      }
    });

    it('keeps the newest maxProfiles and drops expired rows', async () => {
      const { sink, db } = open(3);
      try {
        await sink.insert([1, 2, 3, 4, 5].map((i) => row(`b0000${i}`)), 0, T0);
        assert.deepEqual(tokens(db), ['b00003', 'b00004', 'b00005']);
        await sink.insert([row('b00006', T0 + 5000)], T0 + 1, T0 + 5000);
        assert.deepEqual(tokens(db), ['b00006']);
      } finally {
        await sink.close();
      }
    });

    it('rejects a failing batch and writes none of it; purges everything', async () => {
      const { sink, db } = open(100);
      try {
        await sink.insert([row('c00001')], 0, T0);
        // A value SQLite cannot bind fails the statement mid-batch.
        const bad = [row('c00002'), [Symbol('x'), null, '', '', '', T0, 200, 1, '{}'] as unknown as ProfileRow];
        await assert.rejects(sink.insert(bad, 0, T0));
        assert.deepEqual(tokens(db), ['c00001']);
        await sink.purge();
        assert.deepEqual(tokens(db), []);
      } finally {
        await sink.close();
      }
    });
  });
}
