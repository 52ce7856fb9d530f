/**
 * The profiler thread: stores the request thread's snapshots on its own connection to the store
 * the DSN names. A snapshot that holds no secret is stored as the text it came as, its profile
 * built when first read (stored-profile.ts); one that may is built here (the built-in collectors,
 * redaction) and stored built, so no secret is ever stored. Batches are stored in arrival order
 * and each is acknowledged once stored; errors are relayed to the app's logger. See
 * thread-profile-sink.ts.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { defaultCollectors } from './panels/default-collectors.ts';
import { lowerThreadPriority } from './lower-thread-priority.ts';
import { HeapPoolRelease } from './heap-pool-release.ts';
import { mayHoldSecret } from './may-hold-secret.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import { ProfileWriter, type WriterLog } from './profile-writer.ts';
import { openProfileStorage } from './storage/open-profile-storage.ts';
import type { ProfileStorage } from './storage/profile-storage.ts';
import { deferredRecord } from './stored-profile.ts';
import { withWireHeaders } from './packed-snapshot.ts';
import { factsAt, withHeaderFacts, type SnapshotFacts } from './snapshot-facts.ts';
import { headerObject } from './wire-headers.ts';
import { decodeSnapshot, sentBytes, type FromProfilerThread, type ProfileBatch, type ProfilerThreadStart, type ToProfilerThread } from './profiler-thread-messages.ts';
import { TokenIssuer } from './token.ts';

/**
 * Nice value of this thread. Its work is never urgent and must not take CPU from the requests:
 * on two cores busy with requests (and a load generator), GET /books/1 profiler on / off went from
 * 0.774 to 0.811 with SQLite and from 0.829 to 0.874 with Redis (9 rounds each). On an idle core
 * it runs as fast as before.
 */
const NICE = 10;
lowerThreadPriority(NICE);

const data = workerData as ProfilerThreadStart;
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
// A Redis write unanswered for 5 s fails (its profiles dropped and counted): on a partitioned
// connection it waited for ever, and so did a shutdown, for the queued profiles, past its grace.
const opened: Promise<ProfileStorage | null> = openProfileStorage(data.dsn, data.retention, { writer: 'inline', commandTimeoutMs: 5000 }).catch((error: unknown) => {
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
 * A request with sub-requests as it came, for them to inherit from: stored as it came, or built
 * (then its snapshot, already decoded).
 */
type Parent = { readonly deferred: true; readonly json: string; readonly payload: string | null } | { readonly deferred: false; readonly snapshot: RequestSnapshot };
/** Requests with sub-requests, by token, in one message: a family is always posted whole. */
type Parents = Map<string, Parent>;

/**
 * Stores a snapshot as it came when it holds no secret and is no longer than the body limit (a
 * built profile keeps at most that much of each body: a long one is built, and so cut, here).
 */
function storeOne(w: ProfileWriter, json: string, payload: string | null, body: Uint8Array | null, facts: SnapshotFacts, parents: Parents): Promise<void> {
  if (facts.inherits) return storeSubRequest(w, json, body, facts, parents.get(facts.summary.parent ?? ''));
  // A body beside the text was cut from a large one: built, like every text body (facts.textBody).
  const short = body === null && json.length + (payload?.length ?? 0) <= data.maxBodyBytes;
  if (short && !holdsSecret(json, payload, facts)) {
    if (facts.hasChildren) parents.set(facts.summary.token, { deferred: true, json, payload });
    return w.write(deferredRecord(facts.summary, json, payload));
  }
  const snapshot = decodeSnapshot(json, payload, body);
  if (facts.hasChildren) parents.set(facts.summary.token, { deferred: false, snapshot });
  return w.store(snapshot);
}

function holdsSecret(json: string, payload: string | null, facts: SnapshotFacts): boolean {
  return mayHoldSecret({ ...facts, json, payload, url: facts.summary.url }, data.redactKeys);
}

/**
 * A sub-request sent without what it shares with its parent: stored so too when its parent was
 * stored as it came (it is put back when read), else built here with it put back.
 */
function storeSubRequest(w: ProfileWriter, json: string, body: Uint8Array | null, facts: SnapshotFacts, parent: Parent | undefined): Promise<void> {
  if (body === null && parent?.deferred && !holdsSecret(json, null, facts)) return w.write(deferredRecord(facts.summary, json, null, true));
  const own = decodeSnapshot(json, null, body);
  // A parent not in the message (the request thread always sends them together) leaves it without.
  const shared = parent === undefined ? null : parent.deferred ? decodeSnapshot(parent.json, parent.payload) : parent.snapshot;
  return w.store(shared ? { ...own, response: shared.response, exception: shared.exception } : own);
}

function store({ snapshots, payloads, wires, bodies, facts }: ProfileBatch): Promise<void[]> | null {
  if (!writer) return null;
  const parents: Parents = new Map();
  return Promise.all(
    snapshots.map((json, i) => {
      const wire = wires[i] ?? null;
      if (wire === null) return storeOne(writer!, json, payloads[i] ?? null, bodies[i] ?? null, factsAt(facts, i), parents);
      // Response headers kept as their block are read first: the secret test and storage see
      // them in the text, as an object, and their facts are the object's.
      const headers = headerObject(wire);
      return storeOne(writer!, withWireHeaders(json, headers), payloads[i] ?? null, bodies[i] ?? null, withHeaderFacts(factsAt(facts, i), headers), parents);
    }),
  );
}

/** Snapshots that arrived with no store to write them to (it could not be opened). */
let unstored = 0;

/**
 * Bytes of batches taken from the port and not yet stored, past which the thread takes no more
 * until some are: what waits beyond it waits serialised, on the port (ProfileBatch). The
 * request thread bounds the whole backlog (PROFILER_MAX_BACKLOG); this bounds what of it is
 * decoded and built here at once. A batch larger than this is taken alone.
 */
const TAKEN_MAX_BYTES = 4 * 2 ** 20;
let takenBytes = 0;
let closing = false;
const pool = new HeapPoolRelease();
if (!pool.available) log.warn({ channel: 'profiler' }, "The profiler thread could not obtain V8's gc (another thread turned --expose-gc off at every try, or the process exposes it under another name: --expose-gc-as): its heap's freed pages stay resident.");

function batchBytes({ snapshots, payloads, wires, bodies }: ProfileBatch): number {
  let bytes = 0;
  for (let i = 0; i < snapshots.length; i++) bytes += sentBytes(snapshots[i]!, payloads[i], wires[i], bodies[i]);
  return bytes;
}

/** Takes batches from the port while what is taken is under its bound (all of them when closing). */
function take(): void {
  while (closing || takenBytes < TAKEN_MAX_BYTES) {
    const received = receiveMessageOnPort(data.batches);
    if (received === undefined) return;
    const batch = received.message as ProfileBatch;
    const bytes = batchBytes(batch);
    takenBytes += bytes;
    // Writes start at once (the store batches them), in arrival order even before the store is
    // open; only the acknowledgements wait for each other.
    const stored = writer ? store(batch) : ready.then(() => store(batch) ?? void (unstored += batch.snapshots.length));
    void Promise.resolve(stored)
      .catch(() => undefined)
      .then(() => {
        takenBytes -= bytes;
        pool.observe();
        take();
      });
    last = Promise.all([last, stored]).then(() => post({ type: 'stored', count: batch.snapshots.length, dropped: (writer?.dropped ?? 0) + unstored }));
  }
}

port.on('message', (message: ToProfilerThread) => {
  if (message.type === 'wake') return take();
  closing = true;
  take();
  data.batches.close();
  last = last
    .then(() => opened)
    .then(async (storage) => {
      await writer?.idle();
      await storage?.close();
    })
    .catch((error: unknown) => log.error({ err: error, channel: 'profiler' }, `The profiler thread could not close its store: ${(error as Error)?.message}`))
    .finally(() => port.close());
});
