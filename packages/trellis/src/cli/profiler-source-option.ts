import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { httpProfileSource } from '../profiler/http-profile-source.ts';
import { ProfileSourceError, storeProfileSource, type ProfileSource } from '../profiler/profile-source.ts';
import { openProfileStorage } from '../profiler/storage/open-profile-storage.ts';
import { sqlitePathOf } from '../profiler/storage/sqlite-profile-storage.ts';
import { cliConfig, loadEnv } from './cli-config.ts';
import { CliError } from './cli-error.ts';

export interface SourceOptions {
  readonly url?: string;
  readonly dsn?: string;
}

/** `--url` and `--dsn`, which every profiler command takes. */
export function withSourceOptions(command: Command): Command {
  return command
    .option('--url <url>', "read a running app's profiler (its JSON endpoints), e.g. http://127.0.0.1:8000")
    .option('--dsn <dsn>', 'read this store instead of PROFILER_DSN (sqlite:<file> or redis://…)');
}

/**
 * Where a profiler command reads: a running app (`--url`), or the store the app writes, opened as
 * the app opens it (`--dsn`, else PROFILER_DSN from the environment and `.env`, with its default
 * `sqlite:var/profiler.db` relative to the current directory, as the app resolves it).
 */
export async function openCliProfileSource(options: SourceOptions, cwd = process.cwd()): Promise<ProfileSource> {
  if (options.url !== undefined) {
    try {
      return httpProfileSource(options.url);
    } catch (error) {
      throw asCliError(error);
    }
  }
  const config = cliConfig(loadEnv(cwd));
  if (!config.debug) throw new CliError('profiler_off', 'There is no profiler in production (NODE_ENV=production): profiles are recorded in the debug configuration only.');
  const dsn = options.dsn ?? config.profiler.dsn;
  if (dsn === 'memory:' || dsn === 'sqlite::memory:') throw new CliError('profiler_store_private', `The profile store "${dsn}" lives inside the app's process: read it through the app with --url http://127.0.0.1:8000.`);
  if (dsn.startsWith('sqlite:') && !existsSync(sqlitePathOf(dsn))) throw new CliError('profiler_store_missing', `No profile store at ${sqlitePathOf(dsn)} (PROFILER_DSN=${dsn}): run this where the app runs, set PROFILER_DSN, or pass --url.`);
  if (!/^(sqlite:|rediss?:\/\/)/.test(dsn)) throw new CliError('profiler_store_invalid', `Unsupported profile store "${dsn}": expected sqlite:<file> or redis://….`);
  try {
    const storage = await openProfileStorage(dsn, { maxProfiles: config.profiler.maxProfiles, ttlSeconds: config.profiler.ttlSeconds }, { writer: 'inline' });
    return storeProfileSource(storage, { maxBodyBytes: config.profiler.maxBodyBytes, redactKeys: config.profiler.redactKeys });
  } catch (error) {
    throw new CliError('profiler_store_unavailable', `The profile store ${dsn} could not be opened: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** A source's failure as the CLI's one line; anything else is left as it is. */
export function asCliError(error: unknown): unknown {
  if (error instanceof ProfileSourceError) return new CliError('profiler_source', error.message);
  return error;
}

/** Runs `work` on the source and closes it, failures reported as one line. */
export async function withSource<T>(options: SourceOptions, work: (source: ProfileSource) => Promise<T>): Promise<T> {
  const source = await openCliProfileSource(options);
  try {
    return await work(source);
  } catch (error) {
    if (error instanceof CliError || error instanceof ProfileSourceError) throw asCliError(error);
    // The store failing mid-read (Redis away, a locked file): one line, not a stack.
    throw new CliError('profiler_store_unavailable', `The profile store could not be read: ${(error as Error)?.message ?? String(error)}`);
  } finally {
    await source.close();
  }
}
