import { buildProfile, type BuildOptions } from './build-profile.ts';
import type { DataCollector } from './data-collector.ts';
import { toSummary, type Profile, type ProfileSummary } from './profile.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import type { ProfileRecord } from './storage/profile-record.ts';

/** A built profile's data: what it holds beyond its summary. */
interface BuiltData {
  readonly children: readonly string[];
  readonly collectors: Readonly<Record<string, unknown>>;
}

/** The data of a profile built when first read: its snapshot, and the response body beside it. */
interface DeferredData {
  readonly snapshot: RequestSnapshot;
  readonly payload: string | null;
}

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
export function deferredRecord(summary: ProfileSummary, snapshot: string, payload: string | null): ProfileRecord {
  return { ...summary, data: `{"snapshot":${snapshot},"payload":${JSON.stringify(payload)}}` };
}

/**
 * The profile a record holds, built now if it was stored as a snapshot (with the collectors and
 * options it would have been built with when written; the summary, the token above all, is the
 * record's, which a redraw after a token clash may have changed).
 */
export function profileOf(record: ProfileRecord, collectors: readonly DataCollector[], options: BuildOptions): Profile | Promise<Profile> {
  const data = JSON.parse(record.data) as BuiltData | DeferredData;
  const summary = toSummary(record);
  if (!('snapshot' in data)) return { ...summary, children: data.children, collectors: data.collectors };
  const { snapshot, payload } = data;
  const built = buildProfile({ ...snapshot, token: record.token, response: snapshot.response && { ...snapshot.response, payload } }, collectors, options);
  const withSummary = (profile: Profile): Profile => ({ ...profile, ...summary });
  return built instanceof Promise ? built.then(withSummary) : withSummary(built);
}
