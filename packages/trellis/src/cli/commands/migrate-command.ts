import type { Command } from 'commander';
import type { Migrator } from 'kysely';
import { openDatabase, type Database } from '../../data/database.ts';
import { cliConfig, loadEnv } from '../cli-config.ts';
import { MigrationError } from '../../data/migration-error.ts';
import { migratorFor } from '../../data/migrate.ts';
import { waitForDatabase } from '../../data/wait-for-database.ts';
import { projectMigrations } from '../migration-source.ts';
import { findProject } from '../project.ts';
import type { Output } from '../output.ts';

/**
 * `trellis migrate` applies what is pending; `trellis migrate:status` lists every migration.
 * Kysely's Migrator holds its lock table for the run (a row lock in a transaction on PostgreSQL),
 * so processes that start together apply each migration once.
 */
export function migrateCommands(program: Command, out: Output): void {
  program
    .command('migrate')
    .description('apply the pending migrations to DATABASE_URL')
    .option('--app <module>', 'the app module (default: package.json "trellis.app")')
    .action(async (options: { app?: string }) => {
      await withMigrator(options.app, async (migrator, db) => {
        const { error, results = [] } = await migrator.migrateToLatest();
        // Where DDL is transactional (SQLite, PostgreSQL) Kysely runs the pending migrations in one
        // transaction: after a failure, those it reports as succeeded were rolled back with it.
        const undone = error !== undefined && db.getExecutor().adapter.supportsTransactionalDdl;
        const said = (status: string) => (status === 'Success' ? (undone ? out.yellow('rolled back') : out.green('applied')) : status === 'Error' ? out.red('failed') : out.yellow('not run'));
        for (const r of results) out.line(`${said(r.status)}  ${r.migrationName}`);
        if (error) throw new MigrationError(results.find((r) => r.status === 'Error')?.migrationName ?? null, error);
        if (results.length === 0) out.line('Nothing to apply: the schema is up to date.');
      });
    });
  program
    .command('migrate:status')
    .description('list the migrations and whether each is applied')
    .option('--app <module>', 'the app module')
    .option('--json', 'machine-readable output')
    .action(async (options: { app?: string; json?: boolean }) => {
      await withMigrator(options.app, async (migrator) => {
        const list = (await migrator.getMigrations()).map((m) => ({ name: m.name, appliedAt: m.executedAt?.toISOString() ?? null }));
        if (options.json) return out.json(list);
        out.table(['migration', 'applied'], list.map((m) => [m.name, m.appliedAt ?? out.yellow('pending')]));
      });
    });
}

async function withMigrator(app: string | undefined, run: (migrator: Migrator, db: Database) => Promise<void>): Promise<void> {
  const project = findProject(process.cwd(), app);
  const config = cliConfig(loadEnv(project.root));
  const mod = await project.load();
  const db = openDatabase(config.databaseUrl);
  try {
    // As `trellis serve` does: a missing database or refused credentials is one line naming
    // DATABASE_URL, not pg's stack, and the history is read from the connection's own schema.
    await waitForDatabase(db, config.databaseUrl, { timeoutMs: config.databaseWaitMs, onWaiting: (line) => console.error(line) });
    const migrations = await projectMigrations(project, mod);
    await run(await migratorFor(db, migrations), db);
  } finally {
    await db.destroy();
  }
}
