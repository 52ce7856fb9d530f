/**
 * `npm run thread-cpu -- [--rounds=3] [--duration=8] [--servers=off,sqlite,redis]`
 *
 * The profiler's cost as CPU time per request, thread by thread: the bookshop in the bench's debug
 * configuration serves GET /books/1 (the get-item scenario) with the profiler off and on, and the
 * CPU each of its threads used over the measured run (from /proc/<pid>/task/<tid>/stat) is divided
 * by the requests answered. A throughput ratio on a two-core machine mixes the profiler's own work
 * with whatever else wants the cores (the load generator, Redis) and drifts by a fifth between runs;
 * CPU per request says where the time goes: the request thread (MainThread), the profiler thread
 * (WorkerThread), V8's collector and compiler helpers (V8Worker), and with the Redis store the
 * Redis server's own CPU (redis-server, from its /proc/<pid>/stat, when it runs on this machine),
 * which competes for the same cores. Servers are interleaved round by round and the median of
 * each figure is shown. Linux only; not part of `npm test`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_JWT_SECRET, bookshopFixture } from './lib/bookshop-fixture.ts';
import { parseCli } from './lib/parse-cli.ts';
import { pickLoadGenerator } from './lib/pick-load-generator.ts';
import { redisAvailable } from './lib/redis-available.ts';
import { purgeRedisKeys } from './lib/purge-redis-keys.ts';
import { ServerProcess } from './lib/server-process.ts';
import { median } from './lib/stats.ts';
import { textTable } from './lib/render-table.ts';
import { cpuPerRequest, processTicks, threadTicks, TICKS_PER_SECOND } from './lib/thread-cpu.ts';
import { redisServerPid } from './lib/redis-server-pid.ts';
import { DEBUG_ENV, profilerEnv, type ProfilerStore } from './scenarios/server-specs.ts';
import { BOOKSHOP_SCRIPT } from './lib/bookshop-node-args.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `Usage: npm run thread-cpu -- [options]
  --rounds=N         rounds, each server once per round (default 3)
  --duration=S       measured seconds per server and round (default 8)
  --warmup=S         seconds of load before measuring (default 3)
  --connections=N    keep-alive connections (default 16)
  --servers=LIST     off, sqlite, redis (default all three; redis only when it answers)
  SERVER_ENV='{"NAME":"value"}' adds to every server's environment.`;
const { values } = parseCli({
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    servers: { type: 'string', default: 'off,sqlite,redis' },
    help: { type: 'boolean', default: false },
  },
}, USAGE);
const numbers = { rounds: Number(values.rounds), duration: Number(values.duration), warmup: Number(values.warmup), connections: Number(values.connections) };
for (const [name, value] of Object.entries(numbers)) {
  if (!(Number.isInteger(value) && value > 0)) {
    console.error(`--${name} takes a positive whole number, not ${values[name as keyof typeof values]}\n${USAGE}`);
    process.exit(2);
  }
}
type Mode = 'off' | ProfilerStore;
const asked = values.servers.split(',').map((s) => s.trim());
const unknown = asked.filter((s) => s !== 'off' && s !== 'sqlite' && s !== 'redis');
if (unknown.length > 0 || asked.length === 0) {
  console.error(`--servers takes off, sqlite and redis, not ${unknown.join(', ') || '(nothing)'}\n${USAGE}`);
  process.exit(2);
}
let modes = asked as Mode[];
if (modes.includes('redis') && !(await redisAvailable())) {
  console.log('Redis does not answer on 127.0.0.1:6379: the redis server is left out.');
  modes = modes.filter((m) => m !== 'redis');
}

/** The Redis server's CPU per request, as a thread name would be (read from its own process). */
const REDIS = 'redis-server';
// With the Redis store every profile also costs redis-server CPU, on the same two cores.
const redisPid = modes.includes('redis') ? await redisServerPid() : null;
if (modes.includes('redis') && redisPid === null) console.log('Redis is not a process of this machine: its CPU is left out.');

const workDir = await mkdtemp(join(tmpdir(), 'trellis-thread-cpu-'));
const fixture = await bookshopFixture(root, workDir);
const generator = await pickLoadGenerator();
const request = { method: 'GET', path: '/books/1', headers: { accept: 'application/ld+json' } };
const extra = process.env.SERVER_ENV ? (JSON.parse(process.env.SERVER_ENV) as Record<string, string>) : {};

interface Reading {
  readonly rps: number;
  readonly us: Map<string, number>;
}
const readings = new Map<Mode, Reading[]>(modes.map((m) => [m, []]));

console.log(`thread-cpu: GET /books/1, ${numbers.rounds} rounds × ${numbers.duration} s, ${numbers.connections} connections, ${generator.name}; servers ${modes.join(', ')}`);
try {
  for (let round = 1; round <= numbers.rounds; round++) {
    for (const mode of modes) {
      const label = `thread-cpu-${mode}`;
      const server = await ServerProcess.start({
        name: label,
        script: BOOKSHOP_SCRIPT,
        env: { ...DEBUG_ENV, ...profilerEnv(mode === 'off' ? null : mode, workDir, label), DATABASE_URL: fixture.databaseUrl, JWT_SECRET: BENCH_JWT_SECRET, ...extra },
        description: label,
      }, root);
      try {
        await generator.run(server.url, request, { durationSeconds: numbers.warmup, connections: numbers.connections });
        const redis = mode === 'redis' ? redisPid : null;
        const redisBefore = redis === null ? null : await processTicks(redis);
        const before = await threadTicks(server.pid);
        const result = await generator.run(server.url, request, { durationSeconds: numbers.duration, connections: numbers.connections });
        const after = await threadTicks(server.pid);
        const redisAfter = redis === null ? null : await processTicks(redis);
        const us = cpuPerRequest(before, after, result.requests);
        if (redisBefore !== null && redisAfter !== null) us.set(REDIS, ((redisAfter - redisBefore) * 1e6) / TICKS_PER_SECOND / result.requests);
        const reading = { rps: result.requestsPerSecond, us };
        readings.get(mode)!.push(reading);
        console.log(`  round ${round} ${mode.padEnd(6)} ${Math.round(reading.rps).toLocaleString('en-US').padStart(7)} req/s  ${[...reading.us].map(([n, us]) => `${n} ${us.toFixed(1)} µs`).join(', ')}`);
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  if (modes.includes('redis')) await purgeRedisKeys(`bench:thread-cpu-redis:${process.pid}:*`).catch(() => undefined);
  await rm(workDir, { recursive: true, force: true });
}

const THREADS = ['MainThread', 'WorkerThread', 'V8Worker', REDIS];
const medianOf = (mode: Mode, pick: (r: Reading) => number) => median(readings.get(mode)!.map(pick));
const total = (r: Reading) => [...r.us.values()].reduce((a, b) => a + b, 0);
const other = (r: Reading) => total(r) - THREADS.reduce((sum, t) => sum + (r.us.get(t) ?? 0), 0);
const rows = modes.map((mode) => [
  mode === 'off' ? 'profiler off' : `profiler on, ${mode}`,
  Math.round(medianOf(mode, (r) => r.rps)).toLocaleString('en-US'),
  ...THREADS.map((t) => medianOf(mode, (r) => r.us.get(t) ?? 0).toFixed(1)),
  medianOf(mode, other).toFixed(1),
  medianOf(mode, total).toFixed(1),
]);
console.log(`\nmedians, CPU µs per request\n${textTable(['server', 'req/s', 'request thread', 'workers', 'V8 helpers', 'redis-server', 'other', 'total'], rows)}`);
if (modes.includes('off')) {
  const offTotal = medianOf('off', total);
  for (const mode of modes.filter((m) => m !== 'off')) {
    // Throughput a machine with cores to spare would reach: the request thread alone decides it.
    console.log(`${mode}: req/s on ÷ off ${(medianOf(mode, (r) => r.rps) / medianOf('off', (r) => r.rps)).toFixed(3)}; request thread off ÷ on ${(medianOf('off', (r) => r.us.get('MainThread') ?? 0) / medianOf(mode, (r) => r.us.get('MainThread') ?? 0)).toFixed(3)}; all CPU off ÷ on ${(offTotal / medianOf(mode, total)).toFixed(3)}`);
  }
}
