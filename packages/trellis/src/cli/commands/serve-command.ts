import type { Command } from 'commander';
import { createApp } from '../../app/create-app.ts';
import { serve } from '../../app/serve.ts';
import { migrate } from '../../data/migrate.ts';
import { openDatabase } from '../../data/database.ts';
import { waitForDatabase } from '../../data/wait-for-database.ts';
import { cliConfig, loadEnv } from '../cli-config.ts';
import { projectMigrations } from '../migration-source.ts';
import { appOptionsOf, findProject } from '../project.ts';
import type { Output } from '../output.ts';

/**
 * `trellis serve`: the project's app on HOST:PORT, as its own main.ts would run it: the
 * environment (and `.env`), pending migrations applied, the seed run, graceful shutdown.
 */
export function serveCommand(program: Command, _out: Output): void {
  program
    .command('serve')
    .description('run the app (migrations and seed first) on HOST:PORT')
    .option('--no-migrate', 'do not apply pending migrations first')
    .option('--app <module>', 'the app module')
    .action(async (options: { migrate: boolean; app?: string }) => {
      const project = findProject(process.cwd(), options.app);
      const config = cliConfig(loadEnv(project.root));
      const mod = await project.load();
      const database = openDatabase(config.databaseUrl, { queryTimeoutMs: config.databaseQueryTimeoutMs });
      let app;
      try {
        await waitForDatabase(database, config.databaseUrl, { timeoutMs: config.databaseWaitMs, onWaiting: (line) => console.error(line) });
        if (options.migrate) await migrate(database, await projectMigrations(project, mod));
        if (mod.seed) await mod.seed(database);
        app = await createApp({ ...appOptionsOf(mod), config, database });
      } catch (error) {
        // Until the app owns it, the pool is ours to close: open, it would keep the process
        // alive after the line that says why startup stopped.
        await database.destroy();
        throw error;
      }
      // serve() closes the app (and so the database) when it cannot listen.
      app.addHook('onClose', () => database.destroy());
      await serve(app, config);
    });
}
