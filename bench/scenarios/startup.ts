import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { spread } from '../lib/stats.ts';
import type { Measurement, Scenario, ScenarioContext } from './scenario.ts';

/** One start: from spawning the process to the first 200 of GET /books/1. */
async function startOnce(ctx: ScenarioContext, databaseFile: string): Promise<number> {
  const t0 = performance.now();
  // As a user runs it: no source condition, so `trellis` resolves to the build (dist/).
  const child = spawn(process.execPath, [join(ctx.root, 'examples/bookshop/src/main.ts')], {
    cwd: ctx.workDir,
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${databaseFile}`, PROFILER_DSN: `sqlite:${join(ctx.workDir, 'startup-profiler.db')}`, JWT_SECRET: 'startup-bench-startup-bench-startup-0' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" line within 30 s: ${out.slice(-500)}`)), 30_000);
      child.stdout!.on('data', (c: Buffer) => {
        out += c;
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve((clearTimeout(timer), m[1]!));
      });
      child.once('exit', (code) => reject((clearTimeout(timer), new Error(`exited with ${code}: ${out.slice(-500)}`))));
    });
    const res = await fetch(`${url}/books/1`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /books/1 answered ${res.status}`);
    return performance.now() - t0;
  } finally {
    child.kill('SIGKILL');
  }
}

/**
 * Start to first response of the bookshop as a user starts it, on the build: warm (the SQLite
 * database exists, migrated and seeded) and fresh (a new file each time: migrations and the seed
 * included). Each figure is the median of several starts, with its spread.
 */
export const startup: Scenario = {
  name: 'startup',
  title: 'start to first response (GET /books/1), built package, SQLite: warm and fresh database',
  async skipReason() {
    return null;
  },
  async run(ctx) {
    const runs = ctx.options.quick ? 3 : 11;
    const build = join(ctx.root, 'packages/trellis/scripts/build.ts');
    const built = spawnSync(process.execPath, [build], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
    try {
      const warmDb = join(ctx.workDir, 'startup-warm.db');
      await startOnce(ctx, warmDb); // creates and seeds it; also warms the OS file cache
      const warm: number[] = [];
      const fresh: number[] = [];
      for (let i = 0; i < runs; i++) {
        ctx.log(`  start ${i + 1}/${runs}`);
        warm.push(await startOnce(ctx, warmDb));
        const freshDb = join(ctx.workDir, `startup-fresh-${i}.db`);
        fresh.push(await startOnce(ctx, freshDb));
        rmSync(freshDb, { force: true });
      }
      const w = spread(warm);
      const f = spread(fresh);
      const measurements: Measurement[] = [
        { name: 'warm: median', value: w.median, unit: 'ms' },
        { name: '  min … max', value: w.max - w.min, unit: `ms (${w.min.toFixed(0)} … ${w.max.toFixed(0)})` },
        { name: 'fresh database: median', value: f.median, unit: 'ms' },
        { name: '  min … max', value: f.max - f.min, unit: `ms (${f.min.toFixed(0)} … ${f.max.toFixed(0)})` },
      ];
      return { kind: 'measure', measurements, metrics: { 'startup-warm-ms': w.median, 'startup-fresh-ms': f.median }, notes: [`${runs} starts each, alternating warm and fresh; the built package (dist/), no source condition`] };
    } finally {
      spawnSync(process.execPath, [build, '--clean']);
    }
  },
};
