/**
 * `npm run instructions -- [--requests=2000] [--warmup=1000]`
 *
 * The profiler's cost on the request thread, counted rather than timed: the bookshop in debug with
 * the profiler off and on (SQLite store) runs under valgrind's callgrind, and the instructions the
 * request thread executes per GET /books/1 are reported, with garbage collection apart. On a shared
 * two-core machine a throughput ratio drifts by a fifth between runs; these counts repeat within
 * about 2 % (JIT and GC timing still vary), so a change of a few microseconds shows. Each server
 * is run twice, after the same warm-up, once with no measured requests and once with
 * --requests: the difference is the steady state, without start-up. Slow (about a minute per
 * server, valgrind runs code ~100 times slower); not part of `npm test`. Needs valgrind.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_JWT_SECRET, bookshopFixture } from './lib/bookshop-fixture.ts';
import { URL_LINE } from './lib/server-process.ts';
import { parseCli } from './lib/parse-cli.ts';
import { DEBUG_ENV, profilerEnv, type ProfilerStore } from './scenarios/server-specs.ts';
import { BOOKSHOP_SCRIPT, bookshopNodeArgs } from './lib/bookshop-node-args.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `Usage: npm run instructions -- [options]
  --requests=N   measured GET /books/1 per server (default 2000)
  --warmup=N     requests before measuring (default 1000)
  --only=on|off  count one server (the profiler on, or off)
  --keep         keep callgrind's files (the directory is printed)`;
const { values } = parseCli({
  options: { requests: { type: 'string', default: '2000' }, warmup: { type: 'string', default: '1000' }, only: { type: 'string' }, keep: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
}, USAGE);
const requests = Number(values.requests);
const warmup = Number(values.warmup);
/** `--only=on` (or off) counts one server: half the time, when the other's figure is known. */
const modes = values.only === undefined ? ['off', 'on'] : [values.only];
if (!modes.every((m) => m === 'off' || m === 'on')) {
  console.error(`--only takes on or off, not ${values.only}`);
  process.exit(1);
}

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('valgrind is not installed (apt-get install -y valgrind)');
  process.exit(1);
}

/** `n` GET /books/1 over ten keep-alive connections; throws on any answer but 200. */
async function load(url: string, n: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  let started = 0;
  const one = async (): Promise<void> => {
    while (started < n) {
      started++;
      await new Promise<void>((done, fail) => {
        http.get(`${url}/books/1`, { agent, headers: { accept: 'application/ld+json' } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`GET /books/1 answered ${res.statusCode}`))));
        }).on('error', fail);
      });
    }
  };
  await Promise.all(Array.from({ length: 10 }, one));
  agent.destroy();
}

interface Count {
  /** Instructions of the request thread, and those inside V8's collector (Heap::CollectGarbage). */
  readonly total: number;
  readonly gc: number;
}

/** Runs the bookshop under callgrind for warm-up + `n` requests; the request thread's counts. */
async function counted(env: Record<string, string>, n: number, dir: string): Promise<Count> {
  const child = spawn('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', '--separate-threads=yes', `--callgrind-out-file=${dir}/cg.%p`, process.execPath, '--conditions=trellis-source', ...bookshopNodeArgs(root), BOOKSHOP_SCRIPT], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  // The server announces its URL as every bench server does (server-process.ts, announceUrl).
  const url = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith(URL_LINE)) done(line.slice(URL_LINE.length).trim());
    });
    child.once('exit', (code) => fail(new Error(`the server under valgrind exited (${code}) before announcing its URL`)));
  });
  await load(url, warmup);
  if (n > 0) await load(url, n);
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
  // Thread 1 is the request thread (callgrind numbers threads from 1, in creation order).
  const file = join(dir, `cg.${child.pid}-01`);
  if (!existsSync(file)) throw new Error(`callgrind wrote no file for the request thread in ${dir}`);
  const text = readFileSync(file, 'utf8');
  const total = Number(/^summary: (\d+)/m.exec(text)?.[1]);
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], { maxBuffer: 256 * 2 ** 20 }).toString();
  const gcLine = annotated.split('\n').find((line) => line.includes('v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace'));
  const gc = gcLine ? Number(gcLine.trim().split(' ')[0]!.replace(/,/g, '')) : 0;
  return { total, gc };
}

async function perRequest(label: string, store: ProfilerStore | null, databaseUrl: string, workDir: string): Promise<{ label: string; nonGc: number; gc: number }> {
  const env = { ...DEBUG_ENV, ...profilerEnv(store, workDir, `instructions-${label}`), DATABASE_URL: databaseUrl, JWT_SECRET: BENCH_JWT_SECRET };
  const dirs = [await mkdtemp(join(workDir, `${label}-0-`)), await mkdtemp(join(workDir, `${label}-n-`))];
  const [base, measured] = await Promise.all([counted(env, 0, dirs[0]!), counted(env, requests, dirs[1]!)]);
  return { label, nonGc: (measured.total - measured.gc - (base.total - base.gc)) / requests, gc: (measured.gc - base.gc) / requests };
}

const workDir = await mkdtemp(join(tmpdir(), 'trellis-instructions-'));
try {
  const { databaseUrl } = await bookshopFixture(root, workDir);
  console.log(`instructions per GET /books/1 on the request thread (callgrind), ${requests} requests after ${warmup} of warm-up`);
  const counts = [];
  for (const mode of modes) counts.push(await perRequest(mode, mode === 'on' ? 'sqlite' : null, databaseUrl, workDir));
  for (const r of counts) console.log(`  profiler ${r.label.padEnd(3)}  ${(r.nonGc / 1000).toFixed(1).padStart(6)} k outside GC, ${(r.gc / 1000).toFixed(1).padStart(5)} k in GC`);
  const off = counts.find((r) => r.label === 'off');
  const on = counts.find((r) => r.label === 'on');
  if (off && on) console.log(`  profiler on costs ${((on.nonGc - off.nonGc) / 1000).toFixed(1)} k more outside GC; off ÷ on = ${(off.nonGc / on.nonGc).toFixed(3)} (with GC ${((off.nonGc + off.gc) / (on.nonGc + on.gc)).toFixed(3)})`);
  // Where the instructions go: callgrind_annotate --inclusive=yes <file> (V8's C++ and builtins are named; JIT code is not).
  if (values.keep) console.log(`  callgrind files kept in ${workDir} (<mode>-n-*/cg.<pid>-01 is the measured request thread)`);
} finally {
  if (!values.keep && existsSync(workDir)) await rm(workDir, { recursive: true, force: true });
}
