import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * A bench script's arguments: `--help` prints `usage` and exits 0; an option it does not know, or
 * a value of the wrong kind, prints the error and `usage` and exits 2 (not parseArgs's stack trace).
 * `config` declares `help` like any other boolean option.
 */
export function parseCli<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}
