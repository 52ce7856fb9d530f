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
 * A source reading a store as the app's pages do: a record stored as its snapshot is built with
 * the built-in collectors (profiler-plugin.ts does the same), then made readable.
 */
export function storeProfileSource(storage: ProfileStorage, build: BuildOptions, close: () => Promise<void> = () => storage.close()): ProfileSource {
  const readToken = async (token: string): Promise<Profile | null> => {
    const record = await storage.read(token);
    if (!record) return null;
    return readableProfile(await profileOf(record, defaultCollectors, build, (parent) => storage.read(parent)));
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
