/**
 * `npm run soak -- [--minutes=5] [--connections=50] [--body-kb=0] [--writes-only] [--requests=N] [--store=sqlite|redis] [--profiler=0] [--built]`
 *
 * A soak run (not part of `npm test`): the bookshop in debug with the profiler on, under a mixed
 * load (reads of items and collections, a filtered search, a 404, a failed login, and writes with
 * a body of --body-kb KB) for --minutes, or until --requests answers. Every 10 s it prints RSS
 * (current and peak), the JS heap, requests per second, errors and non-2xx/4xx answers, and
 * how many requests the profiler did not record (its backlog bound, PROFILER_MAX_BACKLOG). At
 * the end: the peak RSS and the totals, with the latency (p50, p99, max) and the requests that got
 * no answer within 10 s (autocannon's timeout). `SOAK_VERBOSE=1` adds, every 10 s, the heap's
 * total, the young generation's size, external and ArrayBuffer memory, and the RSS split into
 * anonymous memory (heaps, malloc) and mapped files (code). Loopback only.
 *
 * `--built` runs the framework as an installed package runs it, from its build (dist/, made first
 * and removed after), with no source condition: then no thread of the server strips TypeScript,
 * which costs each thread that does about 20 MB (the type stripper's WebAssembly memory and code).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_JWT_SECRET, bookshopFixture } from './lib/bookshop-fixture.ts';
import { ServerProcess } from './lib/server-process.ts';
import { parseCli } from './lib/parse-cli.ts';
import { DEBUG_ENV, profilerEnv } from './scenarios/server-specs.ts';
import { BOOKSHOP_SCRIPT } from './lib/bookshop-node-args.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `Usage: npm run soak -- [options]
  --minutes=N        how long to load (default 5)
  --requests=N       stop after N answers instead
  --connections=N    keep-alive connections (default 50)
  --body-kb=N        body size of the writes, KB (default 0: a small body)
  --writes-only      only the write (POST /authors as admin), no reads
  --store=sqlite|redis  where profiles go (default sqlite)
  --profiler=0       the profiler off
  --built            run the built package (dist/) as an installed one runs
  SOAK_VERBOSE=1 adds memory detail every 10 s; SOAK_ENV='{"NAME":"value"}' adds to the server's environment.`;
const { values } = parseCli({
  options: {
    minutes: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    'body-kb': { type: 'string', default: '0' },
    requests: { type: 'string' },
    store: { type: 'string', default: 'sqlite' },
    'writes-only': { type: 'boolean', default: false },
    profiler: { type: 'string', default: '1' },
    built: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
}, USAGE);
const minutes = Number(values.minutes);
const connections = Number(values.connections);
const bodyKb = Number(values['body-kb']);
const store = values.store === 'redis' ? 'redis' : 'sqlite';
const MB = 2 ** 20;

const build = join(root, 'packages/trellis/scripts/build.ts');
if (values.built) {
  // Removed however the run ends: a build left behind is what tests run without the source
  // condition would load beside the sources.
  process.once('exit', () => spawnSync(process.execPath, [build, '--clean']));
  const built = spawnSync(process.execPath, [build], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
}
const workDir = await mkdtemp(join(tmpdir(), 'trellis-soak-'));
const fixture = await bookshopFixture(root, workDir);
const server = await ServerProcess.start(
  { name: 'soak', script: BOOKSHOP_SCRIPT, env: { ...DEBUG_ENV, LOG_LEVEL: 'warn', ...profilerEnv(values.profiler === '0' ? null : store, workDir, 'soak'), DATABASE_URL: fixture.databaseUrl, JWT_SECRET: BENCH_JWT_SECRET, LOGIN_THROTTLE: 'off', ...(values.built ? { NODE_OPTIONS: '' } : {}), ...(process.env.SOAK_ENV ? JSON.parse(process.env.SOAK_ENV) : {}) }, description: `bookshop, debug, profiler ${values.profiler === '0' ? 'off' : 'on'}` },
  root,
);

const admin = { authorization: `Bearer ${fixture.tokens.admin}`, 'content-type': 'application/ld+json', accept: 'application/ld+json' };
const ld = { accept: 'application/ld+json' };
const requests = [
  { method: 'GET', path: '/books/1', headers: ld },
  { method: 'GET', path: '/books?page=2', headers: ld },
  { method: 'GET', path: '/books?title=the&order[price]=desc', headers: ld },
  { method: 'GET', path: '/reviews?embed=author', headers: { accept: 'application/hal+json' } },
  { method: 'GET', path: '/nowhere', headers: { accept: 'application/json' } },
  { method: 'POST', path: '/authors', headers: admin, body: JSON.stringify({ name: 'Soak author', biography: 'b'.repeat(Math.max(1, bodyKb * 1024)) }) },
];

const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Record<string, unknown>) => { on(event: string, fn: (...args: unknown[]) => void): void; stop(): void } & PromiseLike<{ requests: { total: number }; latency: { p50: number; p99: number; max: number }; errors: number; timeouts: number; non2xx: number; '5xx'?: number }>;

let peak = 0;
let answered = 0;
let serverErrors = 0;
const started = Date.now();
const instance = autocannon({
  url: server.url,
  connections,
  duration: minutes * 60,
  ...(values.requests ? { amount: Number(values.requests) } : {}),
  requests: values['writes-only'] ? requests.slice(-1) : requests,
});
instance.on('response', (_client: unknown, statusCode: unknown) => {
  answered++;
  if ((statusCode as number) >= 500) serverErrors++;
});

/** Anonymous and file-backed resident memory (/proc/<pid>/status): the heaps and malloc versus mapped code and files. */
async function anonymous(): Promise<string> {
  const status = await readFile(`/proc/${server.pid}/status`, 'utf8').catch(() => '');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return `anonymous ${(kb('RssAnon') / 1024).toFixed(0)} MB, files ${(kb('RssFile') / 1024).toFixed(0)} MB`;
}

async function notRecorded(): Promise<number> {
  try {
    // The search waits for queued profiles to be stored: under load it may take a while.
    const res = await fetch(`${server.url}/_profiler/search.json?limit=1`, { signal: AbortSignal.timeout(3000) });
    return ((await res.json()) as { notRecorded?: { count: number } }).notRecorded?.count ?? 0;
  } catch {
    return Number.NaN;
  }
}

console.log(`soak: ${minutes} min${values.requests ? ` or ${values.requests} requests` : ''}, ${connections} connections, write bodies ${bodyKb} KB, ${values.profiler === '0' ? 'profiler off' : `profiles in ${store}`}, ${values.built ? 'built package (dist/)' : 'sources'}`);
console.log('elapsed  rss MB  peak MB  heap MB  req/s   5xx  not recorded');
let last = 0;
let dropped = 0;
const tick = setInterval(async () => {
  const rss = await server.rssBytes();
  peak = Math.max(peak, rss);
  const usage = await server.memoryUsage(1000);
  const heap = usage?.heapUsed ?? Number.NaN;
  if (process.env.SOAK_VERBOSE && usage) console.log(`         heapTotal ${(usage.heapTotal / MB).toFixed(0)} MB, young generation ${(((usage as { newSpace?: number }).newSpace ?? Number.NaN) / MB).toFixed(0)} MB, external ${(usage.external / MB).toFixed(0)} MB, arrayBuffers ${(usage.arrayBuffers / MB).toFixed(0)} MB, ${await anonymous()}`);
  const rate = (answered - last) / 10;
  last = answered;
  const elapsed = Math.round((Date.now() - started) / 1000);
  console.log(`${String(elapsed).padStart(5)} s  ${(rss / MB).toFixed(0).padStart(6)}  ${(peak / MB).toFixed(0).padStart(7)}  ${(heap / MB).toFixed(0).padStart(7)}  ${rate.toFixed(0).padStart(5)}  ${String(serverErrors).padStart(4)}  ${Number.isNaN(dropped = await notRecorded()) ? '(busy)' : dropped.toLocaleString('en-US')}`);
}, 10_000);
const sampler = setInterval(async () => (peak = Math.max(peak, await server.rssBytes())), 500);

const result = await instance;
clearInterval(tick);
clearInterval(sampler);
await new Promise((r) => setTimeout(r, 3000));
dropped = await notRecorded();
console.log(`\ndone in ${Math.round((Date.now() - started) / 1000)} s: ${result.requests.total.toLocaleString('en-US')} requests, ${result.timeouts} timeouts (over 10 s), ${result.errors - result.timeouts} other socket errors, latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms max ${result.latency.max} ms, ${serverErrors} answers ≥ 500, peak RSS ${(peak / MB).toFixed(0)} MB, ${dropped.toLocaleString('en-US')} requests not recorded by the profiler`);
await server.stop();
await rm(workDir, { recursive: true, force: true });
if (serverErrors > 0 || result.errors + result.timeouts > 0) process.exitCode = 1;
