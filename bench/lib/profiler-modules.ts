import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProfileStorage, RetentionOptions } from '../../packages/trellis/src/profiler/storage/profile-storage.ts';
import type { Profile } from '../../packages/trellis/src/profiler/profile.ts';

/** The profiler's storage pieces the bench drives directly (find over a million profiles). */
export interface ProfilerStorageModules {
  openProfileStorage(dsn: string, retention: RetentionOptions): Promise<ProfileStorage>;
  bulkWrite(storage: ProfileStorage, profiles: Iterable<Profile>, batchSize?: number): Promise<number>;
  syntheticProfiles(count: number, options?: { end?: number; spacingMs?: number }): Generator<Profile>;
  /** Where they came from: the public `trellis/profiler` entry, or source paths (say so in the notes). */
  readonly source: string;
}

const STORAGE = 'packages/trellis/src/profiler/storage';

/**
 * Loads the storage pieces from `trellis/profiler` when it exports them, else from their source
 * files; returns a skip reason when the profiler storage has not landed at all.
 */
export async function loadProfilerStorage(root: string): Promise<ProfilerStorageModules | string> {
  const pub = (await import('trellis/profiler').catch(() => ({}))) as Partial<ProfilerStorageModules>;
  if (pub.openProfileStorage && pub.bulkWrite && pub.syntheticProfiles) {
    return { openProfileStorage: pub.openProfileStorage, bulkWrite: pub.bulkWrite, syntheticProfiles: pub.syntheticProfiles, source: 'trellis/profiler' };
  }
  const files = ['open-profile-storage.ts', 'bulk-write.ts', 'synthetic-profiles.ts'].map((f) => join(root, STORAGE, f));
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length > 0) return `the profiler storage has not landed (missing ${missing.map((f) => f.slice(root.length + 1)).join(', ')})`;
  const [open, bulk, synthetic] = await Promise.all(files.map((f) => import(f)));
  return {
    openProfileStorage: open.openProfileStorage,
    bulkWrite: bulk.bulkWrite,
    syntheticProfiles: synthetic.syntheticProfiles,
    source: `${STORAGE}/*.ts (not exported from trellis/profiler yet)`,
  };
}
