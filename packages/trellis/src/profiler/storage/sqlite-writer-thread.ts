/**
 * The SQLite profile writer thread: owns the writing connection, applies batches and purges in the
 * order they arrive, and answers each by id. Started by {@link ThreadBatchSink}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openProfileDatabase } from './sqlite-profile-schema.ts';
import { SqliteProfileInserter } from './sqlite-profile-inserter.ts';
import type { WriterRequest } from './thread-batch-sink.ts';

const { path, maxProfiles } = workerData as { path: string; maxProfiles: number };
const db = openProfileDatabase(path, false);
const inserter = new SqliteProfileInserter(db, maxProfiles);
const port = parentPort!;

port.on('message', (request: WriterRequest) => {
  try {
    if (request.type === 'insert') port.postMessage({ id: request.id, taken: inserter.insert(request.rows, request.cutoff, request.now) });
    else if (request.type === 'purge') {
      inserter.purge();
      port.postMessage({ id: request.id });
    } else {
      db.close();
      port.postMessage({ id: request.id });
      port.close();
    }
  } catch (error) {
    port.postMessage({ id: request.id, error });
  }
});
