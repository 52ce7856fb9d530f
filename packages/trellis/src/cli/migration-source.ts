import type { Migration } from 'kysely';
import { migrationsIn } from '../data/migrations-in.ts';
import type { Project, ProjectModule } from './project.ts';

/** A project's migrations: the record its app module exports, or else its migrations folder's files. */
export async function projectMigrations(project: Project, mod: ProjectModule): Promise<Record<string, Migration>> {
  return mod.migrations ? { ...mod.migrations } : migrationsIn(project.migrationsDir);
}
