import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InlineBatchSink } from './inline-batch-sink.ts';
import { sqliteBatchSinkContract } from './sqlite-batch-sink.contract.ts';
import { SqliteProfileInserter } from './sqlite-profile-inserter.ts';
import { openProfileDatabase } from './sqlite-profile-schema.ts';
import { ThreadBatchSink } from './thread-batch-sink.ts';

const dir = mkdtempSync(join(tmpdir(), 'trellis-profiler-sink-'));
let n = 0;
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

sqliteBatchSinkContract('inline', (maxProfiles) => {
  const db = openProfileDatabase(':memory:', true);
  return { sink: new InlineBatchSink(new SqliteProfileInserter(db, maxProfiles)), db };
});

sqliteBatchSinkContract('writer thread', (maxProfiles) => {
  const path = join(dir, `sink-${n++}.db`);
  const db = openProfileDatabase(path, true);
  return { sink: new ThreadBatchSink(path, maxProfiles), db };
});
