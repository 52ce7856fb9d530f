import type { BuildOptions } from './build-profile.ts';
import { defaultCollectors } from './panels/default-collectors.ts';
import type { Profile, ProfileQuery, ProfileSummary } from './profile.ts';
import { readableProfile } from './readable-profile.ts';
import type { ProfileStorage } from './storage/profile-storage.ts';
import { profileOf } from './stored-profile.ts';
import { isToken } from './token.ts';

/**
 * Where the profiler's tools read stored profiles: a store opened by its DSN (the CLI, the stdio MCP
 * server), a running app's JSON endpoints (`http-profile-source.ts`), or the app's own store (the
 * MCP route). Every one of them returns only what was stored, which was redacted before storage.
 */
export interface ProfileSource {
  /** Summaries matching the query, newest first. */
  find(query: ProfileQuery): Promise<ProfileSummary[]>;
  /** A profile as the pages show it (`latest`: the newest main request), or null when unknown. */
  read(token: string): Promise<Profile | null>;
  close(): Promise<void>;
}

/**
 * A stored profile as the app's pages and its tools read it: a record stored as its snapshot is
 * built with the built-in collectors (the app's own collectors ran on the request thread; their
 * data is in it), with its pin, which is the store's state rather than the profile's data. Null
 * when unknown. A store that fails throws; a record this version cannot build (damaged, or written
 * by another version) goes to `unreadable`, which by default throws too.
 */
export async function readStoredProfile(storage: ProfileStorage, build: BuildOptions, token: string, unreadable: (error: unknown) => null = (error) => { throw error; }): Promise<Profile | null> {
  const record = await storage.read(token);
  if (!record) return null;
  let profile: Profile;
  try {
    profile = await profileOf(record, defaultCollectors, build, (parent) => storage.read(parent));
  } catch (error) {
    return unreadable(error);
  }
  return record.pinned ? { ...profile, pinned: true } : profile;
}

/** A source reading a store as the app's pages do (readStoredProfile), made readable. */
export function storeProfileSource(storage: ProfileStorage, build: BuildOptions, close: () => Promise<void> = () => storage.close()): ProfileSource {
  const readToken = async (token: string): Promise<Profile | null> => {
    const profile = await readStoredProfile(storage, build, token);
    return profile && readableProfile(profile);
  };
  return {
    find: (query) => storage.find(query),
    async read(token) {
      if (token === 'latest') {
        const [newest] = await storage.find({ mainOnly: true, limit: 1 });
        return newest ? readToken(newest.token) : null;
      }
      return isToken(token) ? readToken(token) : null;
    },
    close,
  };
}

/** A source that cannot answer (the app unreachable, no profiler there, the store away): one line for its user. */
export class ProfileSourceError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ProfileSourceError';
  }
}
