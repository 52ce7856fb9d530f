import type { Command } from 'commander';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CliError } from '../cli-error.ts';
import { findProject } from '../project.ts';
import type { Output } from '../output.ts';

const TEMPLATE = `import { isPostgres, sql, type Kysely } from 'trellis';

/** What this migration changes, and why. */
export async function up(db: Kysely<any>): Promise<void> {
  // await db.schema.alterTable('tasks').addColumn('due', isPostgres(db) ? sql\`date\` : sql\`text\`).execute();
}

/** Undoes up(); delete this function if the change cannot be undone. */
export async function down(db: Kysely<any>): Promise<void> {
  // await db.schema.alterTable('tasks').dropColumn('due').execute();
}
`;

/** The next free number in the folder, three digits at least: 001, 002, … */
export function nextMigrationNumber(files: readonly string[]): string {
  const numbers = files.map((f) => /^(\d+)-/.exec(f)?.[1]).filter((n): n is string => n !== undefined).map(Number);
  return String(Math.max(0, ...numbers) + 1).padStart(3, '0');
}

/** Characters of a migration's file name taken from its name: file systems refuse names past 255 bytes. */
const MAX_SLUG = 80;

/** A migration name as a file name: lower case words joined by dashes, at most MAX_SLUG characters. */
export function migrationSlug(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, MAX_SLUG).replace(/-+$/, '');
}

export function makeMigrationCommand(program: Command, out: Output): void {
  program
    .command('make:migration')
    .description('write a new, empty migration file')
    .argument('<name>', 'what it does, e.g. "add due date to tasks"')
    .option('--app <module>', 'the app module')
    .action(async (name: string, options: { app?: string }) => {
      const slug = migrationSlug(name);
      if (slug === '') throw new CliError('migration_name', 'The migration name needs at least one letter or digit.', 2);
      const project = findProject(process.cwd(), options.app);
      // An app module that exports its migrations is what `trellis migrate` runs: a file in the
      // folder would never be applied. (A module not written yet, or failing to load, is no answer.)
      const mod = await project.load().catch(() => null);
      if (mod?.migrations) {
        throw new CliError('migrations_exported', `${relative(process.cwd(), project.appPath)} exports its own "migrations", which trellis migrate runs instead of ${relative(process.cwd(), project.migrationsDir)}/: add the new migration to that export.`);
      }
      mkdirSync(project.migrationsDir, { recursive: true });
      const file = join(project.migrationsDir, `${nextMigrationNumber(readdirSync(project.migrationsDir))}-${slug}.ts`);
      if (existsSync(file)) throw new CliError('migration_exists', `${file} exists already.`);
      writeFileSync(file, TEMPLATE);
      out.line(`Created ${relative(process.cwd(), file)}: fill in up() and down(), then run trellis migrate.`);
    });
}
