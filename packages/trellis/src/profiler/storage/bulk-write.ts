import type { Profile } from '../profile.ts';
import { recordOf } from '../stored-profile.ts';
import type { ProfileStorage } from './profile-storage.ts';

/**
 * Writes many profiles, `batchSize` in flight at a time (one SQLite transaction per batch). For
 * benchmarks and fixtures: fills a store with a million profiles without holding them all in memory.
 */
export async function bulkWrite(storage: ProfileStorage, profiles: Iterable<Profile>, batchSize = 1000): Promise<number> {
  let batch: Promise<void>[] = [];
  let written = 0;
  for (const profile of profiles) {
    batch.push(storage.write(recordOf(profile)));
    if (batch.length >= batchSize) {
      await Promise.all(batch);
      written += batch.length;
      batch = [];
    }
  }
  await Promise.all(batch);
  return written + batch.length;
}
