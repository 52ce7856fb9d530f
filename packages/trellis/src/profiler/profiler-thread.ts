/**
 * The profiler thread: stores the request thread's snapshots on its own connection to the store
 * the DSN names. A snapshot that holds no secret is stored as the text it came as, its profile
 * built when first read (stored-profile.ts); one that may is built here (the built-in collectors,
 * redaction) and stored built, so no secret is ever stored. Batches are stored in arrival order
 * and each is acknowledged once stored; errors are relayed to the app's logger. See
 * thread-profile-sink.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { defaultCollectors } from './collectors/default-collectors.ts';
import { lowerThreadPriority } from './lower-thread-priority.ts';
import { mayHoldSecret } from './may-hold-secret.ts';
import { ProfileWriter, type WriterLog } from './profile-writer.ts';
import { openProfileStorage } from './storage/open-profile-storage.ts';
import type { ProfileStorage } from './storage/profile-storage.ts';
import { deferredRecord } from './stored-profile.ts';
import { decodeSnapshot, factsAt, type FromProfilerThread, type ProfilerThreadData, type SnapshotFacts, type ToProfilerThread } from './thread-profile-sink.ts';
import { TokenIssuer } from './token.ts';

/**
 * Nice value of this thread. Its work is never urgent and must not take CPU from the requests:
 * on two cores busy with requests (and a load generator), GET /books/1 profiler on / off went from
 * 0.774 to 0.811 with SQLite and from 0.829 to 0.874 with Redis (9 rounds each). On an idle core
 * it runs as fast as before.
 */
const NICE = 10;
lowerThreadPriority(NICE);

const data = workerData as ProfilerThreadData;
const port = parentPort!;
const post = (message: FromProfilerThread) => port.postMessage(message);

function plainError(error: unknown): { name: string; message: string; stack?: string } {
  return error instanceof Error ? { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) } : { name: 'Error', message: String(error) };
}

const relay = (level: 'warn' | 'error') => (context: Record<string, unknown>, message?: string) => {
  const { err, ...rest } = context;
  post({ type: 'log', level, context: err === undefined ? rest : { ...rest, err: plainError(err) }, message: message ?? '' });
};
const log = { warn: relay('warn'), error: relay('error') } as WriterLog;

// SQLite writes inline here, in transactions per 10 ms window: this thread is the writer thread.
const opened: Promise<ProfileStorage | null> = openProfileStorage(data.dsn, data.retention, { writer: 'inline' }).catch((error: unknown) => {
  log.error({ err: error, channel: 'profiler' }, `The profiler thread could not open its store: ${(error as Error)?.message}`);
  return null;
});
let writer: ProfileWriter | null = null;
const ready = opened.then((storage) => {
  // Redraws after a token clash need only be fresh: the store's unique key is the check.
  if (storage) writer = new ProfileWriter(storage, log, new TokenIssuer(data.retention.maxProfiles), { ...data, collectors: defaultCollectors });
});
/** The acknowledgement of the latest batch: each waits for the one before, so they go out in order. */
let last: Promise<unknown> = ready;

/**
 * Stores a snapshot as it came when it holds no secret and is no longer than the body limit (a
 * built profile keeps at most that much of each body: a long one is built, and so cut, here).
 */
function storeOne(w: ProfileWriter, json: string, payload: string | null, facts: SnapshotFacts): Promise<void> {
  const short = json.length + (payload?.length ?? 0) <= data.maxBodyBytes;
  if (!short || mayHoldSecret({ ...facts, json, payload, url: facts.summary.url }, data.redactKeys)) return w.store(decodeSnapshot(json, payload));
  return w.write(deferredRecord(facts.summary, json, payload));
}

const store = ({ snapshots, payloads, facts }: Extract<ToProfilerThread, { type: 'profiles' }>) =>
  writer ? Promise.all(snapshots.map((json, i) => storeOne(writer!, json, payloads[i] ?? null, factsAt(facts, i)))) : null;

port.on('message', (message: ToProfilerThread) => {
  if (message.type === 'profiles') {
    // Writes start at once (the store batches them), in arrival order even before the store is
    // open; only the acknowledgements wait for each other.
    const stored = writer ? store(message) : ready.then(() => store(message));
    last = Promise.all([last, stored]).then(() => post({ type: 'stored', count: message.snapshots.length }));
    return;
  }
  last = last
    .then(() => opened)
    .then(async (storage) => {
      await writer?.idle();
      await storage?.close();
    })
    .catch((error: unknown) => log.error({ err: error, channel: 'profiler' }, `The profiler thread could not close its store: ${(error as Error)?.message}`))
    .finally(() => port.close());
});
