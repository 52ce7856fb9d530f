import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, type Migration } from 'kysely';

/**
 * The migrations in a folder, by file name without extension: every `.ts`/`.js` file exporting
 * `up` (and `down` if it can be undone); other files, such as an index, are skipped. They apply in
 * name order, so start each name with a number (`trellis make:migration` does).
 */
export async function migrationsIn(folder: string | URL): Promise<Record<string, Migration>> {
  const migrationFolder = folder instanceof URL ? fileURLToPath(folder) : path.resolve(folder);
  return new FileMigrationProvider({ fs, path, migrationFolder }).getMigrations();
}
