/**
 * The SQLite profile writer thread: owns the writing connection and answers each request by id,
 * in arrival order. Inserts arriving within `batchWindowMs` share one transaction (the request
 * thread posts as soon as it has profiles, so they do not wait in its heap); a purge or close
 * first commits what is queued.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openProfileDatabase } from './sqlite-profile-schema.ts';
import { SqliteProfileInserter, type ProfileRow } from './sqlite-profile-inserter.ts';
import type { WriterRequest } from './thread-batch-sink.ts';

const { path, maxProfiles, batchWindowMs } = workerData as { path: string; maxProfiles: number; batchWindowMs: number };
const db = openProfileDatabase(path, false);
const inserter = new SqliteProfileInserter(db, maxProfiles);
const port = parentPort!;
let queued: Extract<WriterRequest, { type: 'insert' }>[] = [];
let timer: NodeJS.Timeout | null = null;

function commit(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const batch = queued;
  queued = [];
  if (batch.length === 0) return;
  const rows: ProfileRow[] = [];
  for (const request of batch) rows.push(...request.rows);
  const last = batch.at(-1)!;
  try {
    const taken = inserter.insert(rows, last.cutoff, last.now);
    // One message answers the whole transaction: a message per request cost both threads a
    // dispatch each, and under load a transaction holds dozens of requests.
    const replies: { id: number; taken: boolean[] }[] = [];
    let at = 0;
    for (const request of batch) {
      replies.push({ id: request.id, taken: taken.slice(at, at + request.rows.length) });
      at += request.rows.length;
    }
    port.postMessage(replies);
  } catch {
    // One bad request must not fail the others queued with it: retry each on its own.
    for (const request of batch) answer(request.id, () => ({ taken: inserter.insert(request.rows, request.cutoff, request.now) }));
  }
}

function answer(id: number, run: () => object): void {
  try {
    port.postMessage({ id, ...run() });
  } catch (error) {
    port.postMessage({ id, error });
  }
}

port.on('message', (request: WriterRequest) => {
  if (request.type === 'insert') {
    queued.push(request);
    timer ??= setTimeout(commit, batchWindowMs);
    return;
  }
  commit();
  if (request.type === 'purge') answer(request.id, () => (inserter.purge(), {}));
  else {
    answer(request.id, () => (db.close(), {}));
    port.close();
  }
});
