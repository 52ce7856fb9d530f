import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { BOOKSHOP_SCRIPT, bookshopNodeArgs } from './bookshop-node-args.ts';

/** A server under test: a script run in its own Node process with its own environment. */
export interface ServerSpec {
  /** Short name shown in the table, e.g. `trellis-prod`. */
  readonly name: string;
  /** Script path relative to the repository root. */
  readonly script: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Shown under the table: what this server is and how it is configured. */
  readonly description: string;
}

export const URL_LINE = 'BENCH_URL ';

/** Printed by every server script once it listens; the harness waits for this line. */
export function announceUrl(url: string): void {
  process.stdout.write(`${URL_LINE}${url}\n`);
}

export class ServerProcess {
  readonly spec: ServerSpec;
  readonly url: string;
  readonly #child: ChildProcess;

  private constructor(spec: ServerSpec, url: string, child: ChildProcess) {
    this.spec = spec;
    this.url = url;
    this.#child = child;
  }

  static async start(spec: ServerSpec, root: string, timeoutMs = 30_000): Promise<ServerProcess> {
    // --expose-gc: the memory reading collects garbage first, so it reports live memory. The
    // bookshop runs with the Node options of its start script, as `npm start` runs it.
    const nodeArgs = spec.script === BOOKSHOP_SCRIPT ? bookshopNodeArgs(root) : [];
    const child = spawn(process.execPath, ['--expose-gc', ...nodeArgs, spec.script], {
      cwd: root,
      // PORT=0: the kernel picks a free port; the script announces the URL it got.
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => {
      if (stderr.length < 8192) stderr += c;
    });
    const lines = createInterface({ input: child.stdout! });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => fail(`did not announce its URL within ${timeoutMs} ms`), timeoutMs);
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`server ${spec.name} (${spec.script}) ${why}\n${stderr}`));
      };
      child.once('exit', (code) => fail(`exited with code ${code} before announcing its URL`));
      lines.on('line', (line) => {
        if (!line.startsWith(URL_LINE)) return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(line.slice(URL_LINE.length).trim());
      });
    });
    // Keep draining stdout so a chatty server never blocks on a full pipe.
    child.stdout!.resume();
    return new ServerProcess(spec, url, child);
  }

  get pid(): number {
    return this.#child.pid!;
  }

  /** Resident set size of the server process in bytes (Linux /proc). */
  async rssBytes(): Promise<number> {
    const status = await readFile(`/proc/${this.pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (!kb) throw new Error(`no VmRSS in /proc/${this.pid}/status`);
    return Number(kb[1]) * 1024;
  }

  /** process.memoryUsage() of a server that answers it (servers/answer-memory.ts), else null. */
  async memoryUsage(timeoutMs = 2000): Promise<NodeJS.MemoryUsage | null> {
    const child = this.#child;
    if (!child.connected) return null;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(null), timeoutMs);
      const onMessage = (m: unknown) => {
        if (m && typeof m === 'object' && 'memory' in m) done((m as { memory: NodeJS.MemoryUsage }).memory);
      };
      const done = (value: NodeJS.MemoryUsage | null) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(value);
      };
      child.on('message', onMessage);
      child.send('memory');
    });
  }

  async stop(graceMs = 5000): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = once(this.#child, 'exit');
    this.#child.kill('SIGTERM');
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
