import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
/** A debug bookshop on an ephemeral port, its data and profiles in memory. */
export const ENV = { ...process.env, PORT: '0', DATABASE_URL: 'sqlite::memory:', PROFILER_DSN: 'memory:', NODE_ENV: 'development', LOG_LEVEL: 'info' };

export interface BookshopProcess {
  readonly child: ChildProcess;
  /** The base URL, once the "Server listening" line is written. */
  readonly url: Promise<string>;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, and the exit. */
  stop(): Promise<void>;
}

/** `npm start` as a process: the bookshop's entrypoint with the given environment. */
export function startBookshop(env: Record<string, string | undefined>): BookshopProcess {
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.stderr!.on('data', (c: Buffer) => (out += c));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 30 s:\n${out}`)), 30_000);
    child.stdout!.on('data', () => {
      const m = /Server listening at (https?:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${out}`));
    });
  });
  url.catch(() => {});
  return {
    child,
    url,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
