/**
 * `npm run bench [-- --quick] [-- --check]`: runs the scenarios, prints a table per scenario and
 * the budgets, writes everything to bench/results/<date>.json. See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, totalmem, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs, UsageError, USAGE } from './lib/bench-options.ts';
import { pickLoadGenerator } from './lib/pick-load-generator.ts';
import { purgeRedisKeys } from './lib/purge-redis-keys.ts';
import { checkBudgets, type Outcome } from './lib/budgets.ts';
import { renderScenario, renderVerdicts } from './lib/render-table.ts';
import { SCENARIOS } from './scenarios/index.ts';
import type { ScenarioContext, ScenarioResult } from './scenarios/scenario.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}

let options;
try {
  options = parseBenchArgs(process.argv.slice(2));
  const unknown = options.only.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) throw new UsageError(`unknown scenario ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`bench: ${error.message}\n\n${USAGE}`);
  process.exit(2);
}

const generator = await pickLoadGenerator(options.tool);
const workDir = await mkdtemp(join(tmpdir(), 'trellis-bench-'));
const startedAt = new Date();
const machine = { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform}-${process.arch}` };
const log = (line: string) => process.stderr.write(`${line}\n`);
/** The commit measured, and whether the tree had uncommitted changes (figures then describe no commit). */
function revision(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' + uncommitted changes' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
// A run from an exported snapshot (git archive) names the commit it came from.
const commit = process.env.BENCH_COMMIT ?? revision();

console.log(`Trellis benchmarks, ${startedAt.toISOString()}${options.quick ? ' (--quick: smoke run, figures not meaningful)' : ''}`);
console.log(`commit: ${commit}`);
console.log(`machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGb} GB, Node ${machine.node}`);
console.log(`load: ${generator.name}, ${options.connections} connections, ${options.rounds} round(s) × ${options.durationSeconds} s per server after ${options.warmupSeconds} s warm-up; servers interleaved, order reversed every other round\n`);

const ctx: ScenarioContext = { root, workDir, options, generator, log };
const results: Record<string, ScenarioResult | { skipped: string } | { failed: string }> = {};
const outcomes: Record<string, Outcome> = {};
let failed = 0;

try {
  for (const scenario of SCENARIOS) {
    if (options.only.length > 0 && !options.only.includes(scenario.name)) continue;
    console.log(`## ${scenario.name}: ${scenario.title}`);
    const skip = await scenario.skipReason(ctx);
    if (skip) {
      console.log(`skipped: ${skip}\n`);
      results[scenario.name] = { skipped: skip };
      outcomes[scenario.name] = { skipped: skip };
      continue;
    }
    const t0 = performance.now();
    try {
      const result = await scenario.run(ctx);
      results[scenario.name] = result;
      outcomes[scenario.name] = { metrics: result.metrics };
      console.log(renderScenario(result));
      if (result.kind === 'load') for (const s of result.servers) console.log(`  ${s.name}: ${s.description}`);
      for (const note of result.notes) console.log(`  note: ${note}`);
    } catch (error) {
      failed++;
      const message = (error as Error).stack ?? String(error);
      results[scenario.name] = { failed: message };
      outcomes[scenario.name] = { skipped: `failed: ${(error as Error).message.split('\n')[0]}` };
      console.log(`FAILED: ${message}`);
    }
    console.log(`  (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
  }
} finally {
  await rm(workDir, { recursive: true, force: true });
  // Every Redis key of this run is under bench:<label>:<this pid>: (see scenarios/server-specs.ts).
  await purgeRedisKeys(`bench:*:${process.pid}:*`).catch((error: Error) => log(`could not purge the run's Redis keys: ${error.message}`));
}

const verdicts = checkBudgets(outcomes);
console.log('## budgets' + (options.check ? ' (--check)' : ' (informational; --check enforces them)'));
console.log(renderVerdicts(verdicts));

const out = options.out ?? join(root, 'bench', 'results', `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
await mkdir(dirname(out), { recursive: true });
const elapsedSeconds = Math.round((Date.now() - startedAt.getTime()) / 1000);
await writeFile(out, JSON.stringify({ startedAt: startedAt.toISOString(), elapsedSeconds, commit, machine, tool: generator.name, options, scenarios: results, budgets: verdicts }, null, 2));
console.log(`\nresults: ${out} (${elapsedSeconds} s)`);

const missed = verdicts.filter((v) => v.status === 'missed').length;
if (failed > 0) console.log(`${failed} scenario(s) failed`);
if (options.check && missed > 0) console.log(`${missed} budget(s) missed`);
process.exitCode = failed > 0 || (options.check && missed > 0) ? 1 : 0;
