import type { BenchOptions } from '../lib/bench-options.ts';
import type { LoadGenerator, LoadResult } from '../lib/load-generator.ts';
import type { Spread } from '../lib/stats.ts';

export interface ScenarioContext {
  /** Repository root (servers are started from here). */
  readonly root: string;
  /** A scratch directory for SQLite files and fixtures, removed after the run. */
  readonly workDir: string;
  readonly options: BenchOptions;
  readonly generator: LoadGenerator;
  readonly log: (line: string) => void;
}

/** One server's figures in a load scenario. */
export interface ServerFigures {
  readonly name: string;
  readonly description: string;
  readonly rounds: readonly LoadResult[];
  readonly rps: Spread;
  readonly p50Ms: Spread;
  readonly p99Ms: Spread;
  /** Requests/s over the baseline's in the same round, across rounds. */
  readonly ratio: Spread;
}

export interface LoadScenarioResult {
  readonly kind: 'load';
  readonly baseline: string;
  readonly servers: readonly ServerFigures[];
}

export interface Measurement {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
}

export interface MeasureScenarioResult {
  readonly kind: 'measure';
  readonly measurements: readonly Measurement[];
}

export type ScenarioResult = (LoadScenarioResult | MeasureScenarioResult) & {
  /** Named figures that budgets refer to, e.g. `ratio:bookshop-prod`, `find-p95-ms`. */
  readonly metrics: Readonly<Record<string, number>>;
  readonly notes: readonly string[];
};

/**
 * One benchmark. Contract: `skipReason` is cheap and tells, before anything starts, why the
 * scenario cannot run here (a module that has not landed, a service that is down), or null;
 * `run` starts what it needs, stops everything it started even when it fails, and resolves with
 * its figures.
 */
export interface Scenario {
  readonly name: string;
  readonly title: string;
  skipReason(ctx: ScenarioContext): Promise<string | null>;
  run(ctx: ScenarioContext): Promise<ScenarioResult>;
}
