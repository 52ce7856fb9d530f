import { buildProfile, type BuildOptions } from './build-profile.ts';
import type { DataCollector } from './data-collector.ts';
import { toSummary, type Profile, type ProfileSummary } from './profile.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import type { ProfileRecord } from './storage/profile-record.ts';
import { unpackSnapshot, type PackedSnapshot } from './packed-snapshot.ts';

/** A built profile's data: what it holds beyond its summary. */
interface BuiltData {
  readonly children: readonly string[];
  readonly collectors: Readonly<Record<string, unknown>>;
}

/** The data of a profile built when first read: its snapshot, and the response body beside it. */
interface DeferredData {
  /** Packed (packed-snapshot.ts), or whole in records of older versions. */
  readonly snapshot: RequestSnapshot | PackedSnapshot;
  readonly payload: string | null;
  /** A sub-request stored without the response and exception its parent's record holds for it. */
  readonly inherits?: true;
}

/** Reads the record of a token (the parent of a sub-request that inherits from it). */
export type RecordReader = (token: string) => Promise<ProfileRecord | null>;

/** The record of a built profile. */
export function recordOf(profile: Profile): ProfileRecord {
  return { ...toSummary(profile), data: JSON.stringify({ children: profile.children, collectors: profile.collectors } satisfies BuiltData) };
}

/**
 * The record of a profile to be built when it is first read, from the JSON text of a snapshot
 * that holds no secret (`mayHoldSecret` said so) and its response body. The text is spliced in as
 * it came: storing it costs no parse, no collector and no second encoding, which were most of the
 * profiler thread's work per request, for profiles most of which are never opened.
 */
export function deferredRecord(summary: ProfileSummary, snapshot: string, payload: string | null, inherits = false): ProfileRecord {
  return { ...summary, data: `{"snapshot":${snapshot},"payload":${JSON.stringify(payload)}${inherits ? ',"inherits":true' : ''}}` };
}

/**
 * What a sub-request inherits from its parent's record: the response and exception of the
 * parent's snapshot, if the record is that parent's (a token redrawn after a clash may name
 * another request) and still there.
 */
async function inherited(child: RequestSnapshot, parentToken: string | null, read: RecordReader | undefined): Promise<Pick<RequestSnapshot, 'response' | 'exception'>> {
  const record = parentToken && read ? await read(parentToken) : null;
  const data = record && (JSON.parse(record.data) as BuiltData | DeferredData);
  if (!data || !('snapshot' in data)) return { response: null, exception: [] };
  const parent = unpackSnapshot(data.snapshot);
  if (!parent.children.includes(child.token)) return { response: null, exception: [] };
  const { response, exception } = parent;
  return { response: response && { ...response, payload: data.payload }, exception };
}

/**
 * The profile a record holds, built now if it was stored as a snapshot (with the collectors and
 * options it would have been built with when written; the summary, the token above all, is the
 * record's, which a redraw after a token clash may have changed).
 */
export function profileOf(record: ProfileRecord, collectors: readonly DataCollector[], options: BuildOptions, readParent?: RecordReader): Profile | Promise<Profile> {
  const data = JSON.parse(record.data) as BuiltData | DeferredData;
  const summary = toSummary(record);
  if (!('snapshot' in data)) return { ...summary, children: data.children, collectors: data.collectors };
  const { payload } = data;
  const snapshot = unpackSnapshot(data.snapshot);
  const withSummary = (profile: Profile): Profile => ({ ...profile, ...summary });
  const build = (s: RequestSnapshot) => {
    const built = buildProfile({ ...s, token: record.token }, collectors, options);
    return built instanceof Promise ? built.then(withSummary) : withSummary(built);
  };
  if (data.inherits) return inherited(snapshot, record.parent, readParent).then((shared) => build({ ...snapshot, ...shared }));
  return build({ ...snapshot, response: snapshot.response && { ...snapshot.response, payload } });
}
