import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../app/env-parsers.ts';

// A SQLite file is named by a variable (DATABASE_URL, PROFILER_DSN): what keeps it from being
// made or opened is said naming that variable, where mkdir said "EEXIST: file already exists"
// and SQLite "unable to open database file", neither naming the variable nor what is in the way.

/** SQLite's SQLITE_CANTOPEN: the file or its directory cannot be opened or created. */
const CANTOPEN = 14;

/** Makes the directory `file` goes in. */
export function makeSqliteDirectory(file: string, variable: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    const inTheWay = fileInTheWay(dirname(file));
    const why = inTheWay === null ? `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` : `"${inTheWay}" is a file, not a directory`;
    throw new ConfigError(variable, `cannot create the directory of "${file}": ${why}`);
  }
}

/** What `open` returns for `file`; a file SQLite cannot open is a ConfigError naming `variable`. */
export function openingSqliteFile<T>(file: string, variable: string, open: () => T): T {
  try {
    return open();
  } catch (error) {
    if ((error as { errcode?: number }).errcode !== CANTOPEN) throw error;
    const why = isDirectory(file) ? `"${file}" is a directory` : `cannot open "${file}" (${(error as Error).message})`;
    throw new ConfigError(variable, why);
  }
}

/** The nearest existing path at or above `dir`, when it is not a directory. */
function fileInTheWay(dir: string): string | null {
  for (let path = dir; ; path = dirname(path)) {
    try {
      return statSync(path).isDirectory() ? null : path;
    } catch {
      // Not there (or under a file): look higher.
    }
    if (dirname(path) === path) return null;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
