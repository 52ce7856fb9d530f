import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Migration } from 'kysely';
import type { Database } from '../data/database.ts';
import type { CreateAppOptions } from '../app/create-app.ts';
import { CliError } from './cli-error.ts';

/**
 * What the CLI needs from a project: its app module's exports. Named in the project's
 * package.json, `"trellis": { "app": "src/app.ts", "migrations": "migrations" }`, or by `--app`.
 */
export interface ProjectModule {
  /** The declared resources (defineResource). Required. */
  readonly resources: readonly unknown[];
  /** The service's name, shown by the entrypoint and the docs. */
  readonly name?: string;
  /** Migrations by name, when they are not files in the migrations folder. */
  readonly migrations?: Readonly<Record<string, Migration>>;
  /** Fills an empty database (run by `serve` after the migrations). */
  readonly seed?: (db: Database) => Promise<void>;
  /** The OpenAPI document's contact and servers (createApp's `docs`). */
  readonly docs?: CreateAppOptions['docs'];
  /** Firewall options: authenticators, voters, path rules (createApp's `security`). */
  readonly security?: CreateAppOptions['security'];
  /** Profiler options, the app's own panels among them (createApp's `profiler`). */
  readonly profiler?: CreateAppOptions['profiler'];
}

/** What of an app module `createApp` takes: what `trellis serve` runs is what its own main.ts would. */
export function appOptionsOf(mod: ProjectModule): Pick<CreateAppOptions, 'name' | 'resources' | 'docs' | 'security' | 'profiler'> {
  return {
    ...(mod.name ? { name: mod.name } : {}),
    resources: mod.resources,
    ...(mod.docs ? { docs: mod.docs } : {}),
    ...(mod.security ? { security: mod.security } : {}),
    ...(mod.profiler ? { profiler: mod.profiler } : {}),
  };
}

export interface Project {
  /** The directory holding the project's package.json. */
  readonly root: string;
  readonly appPath: string;
  /** The folder of migration files (`make:migration` writes there), absolute. */
  readonly migrationsDir: string;
  load(): Promise<ProjectModule>;
}

interface TrellisField {
  app?: string;
  migrations?: string;
}

function findManifest(from: string): string | null {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const field = (JSON.parse(readFileSync(file, 'utf8')) as { trellis?: TrellisField }).trellis;
      if (field?.app) return file;
    }
    if (dirname(dir) === dir) return null;
  }
}

/** The project around `cwd` (the nearest package.json with a `trellis.app` field), or `--app`'s. */
export function findProject(cwd: string, appOption?: string): Project {
  let root: string;
  let field: TrellisField;
  if (appOption) {
    root = cwd;
    field = { app: appOption, migrations: 'migrations' };
  } else {
    const manifest = findManifest(cwd);
    if (manifest === null) throw new CliError('project_not_found', 'No Trellis project here: add "trellis": { "app": "src/app.ts" } to package.json, or pass --app <module>.');
    root = dirname(manifest);
    field = (JSON.parse(readFileSync(manifest, 'utf8')) as { trellis: TrellisField }).trellis;
    // Run from a subdirectory, a command works in the project's, as `npm run` does: a relative
    // DATABASE_URL (sqlite:var/data.db) is the project's database, not a new one beside the shell.
    if (resolve(cwd) !== root) process.chdir(root);
  }
  const appPath = isAbsolute(field.app!) ? field.app! : join(root, field.app!);
  const migrationsDir = join(root, field.migrations ?? 'migrations');
  return {
    root,
    appPath,
    migrationsDir,
    async load() {
      if (!existsSync(appPath)) throw new CliError('app_not_found', `The app module ${appPath} does not exist.`);
      const mod = (await import(pathToFileURL(appPath).href)) as Partial<ProjectModule>;
      if (!Array.isArray(mod.resources)) throw new CliError('app_invalid', `${appPath} must export "resources", an array of defineResource() declarations.`);
      return mod as ProjectModule;
    },
  };
}
