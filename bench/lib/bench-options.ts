/** What `npm run bench -- …` accepts. */
export interface BenchOptions {
  readonly quick: boolean;
  readonly check: boolean;
  readonly rounds: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Scenario names to run; empty means all. */
  readonly only: readonly string[];
  readonly tool: 'auto' | 'wrk' | 'autocannon';
  /** Profiles stored before timing `find` (SQLite). */
  readonly findProfiles: number;
  /** The same for Redis, whose writes are round trips: filling it takes ~100 s per million. */
  readonly findProfilesRedis: number;
  /** Profiled request counts at which RSS is read. */
  readonly rssLow: number;
  readonly rssHigh: number;
  /** Where the JSON results go; default bench/results/<timestamp>.json. */
  readonly out: string | null;
}

const FULL: BenchOptions = {
  quick: false,
  check: false,
  rounds: 3,
  durationSeconds: 3,
  warmupSeconds: 1,
  connections: 50,
  only: [],
  tool: 'auto',
  findProfiles: 1_000_000,
  findProfilesRedis: 200_000,
  rssLow: 10_000,
  rssHigh: 200_000,
  out: null,
};

/** Small enough to prove the harness end to end in well under a minute. */
const QUICK: Partial<BenchOptions> = {
  quick: true,
  rounds: 1,
  durationSeconds: 1,
  warmupSeconds: 1,
  connections: 10,
  findProfiles: 20_000,
  findProfilesRedis: 20_000,
  rssLow: 1_000,
  rssHigh: 5_000,
};

export const USAGE = `Usage: npm run bench -- [options]
  --quick               one short round of everything (a smoke run)
  --check               check the budgets; exit 1 when one is missed
  --only=a,b            run only these scenarios
  --rounds=N            rounds per load scenario (default ${FULL.rounds})
  --duration=S          seconds of load per server per round (default ${FULL.durationSeconds})
  --warmup=S            seconds of warm-up per server before the first round (default ${FULL.warmupSeconds})
  --connections=N       keep-alive connections (default ${FULL.connections})
  --tool=wrk|autocannon load generator (default: wrk when /usr/bin/wrk exists)
  --find-profiles=N     profiles stored before timing find, SQLite (default ${FULL.findProfiles})
  --find-profiles-redis=N  the same for Redis (default ${FULL.findProfilesRedis})
  --rss-low=N --rss-high=N  profiled requests at which RSS is read (default ${FULL.rssLow}, ${FULL.rssHigh})
  --out=FILE            results JSON (default bench/results/<date>.json)`;

export class UsageError extends Error {}

function positive(name: string, value: string, integer: boolean): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${name} expects a positive ${integer ? 'integer' : 'number'}, got "${value}"`);
  }
  return n;
}

/** Parses argv (without node and script); --quick sets its defaults first, later flags override. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const opts: { -readonly [K in keyof BenchOptions]: BenchOptions[K] } = { ...FULL, ...(argv.includes('--quick') ? QUICK : {}) };
  for (const arg of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new UsageError(`unknown argument "${arg}"`);
    const [, name, value] = m as unknown as [string, string, string | undefined];
    const need = () => {
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value (--${name}=…)`);
      return value;
    };
    switch (name) {
      case 'quick': break;
      case 'check': opts.check = true; break;
      case 'only': opts.only = need().split(',').map((s) => s.trim()).filter(Boolean); break;
      case 'rounds': opts.rounds = positive(name, need(), true); break;
      case 'duration': opts.durationSeconds = positive(name, need(), false); break;
      case 'warmup': opts.warmupSeconds = positive(name, need(), false); break;
      case 'connections': opts.connections = positive(name, need(), true); break;
      case 'find-profiles': opts.findProfiles = positive(name, need(), true); break;
      case 'find-profiles-redis': opts.findProfilesRedis = positive(name, need(), true); break;
      case 'rss-low': opts.rssLow = positive(name, need(), true); break;
      case 'rss-high': opts.rssHigh = positive(name, need(), true); break;
      case 'out': opts.out = need(); break;
      case 'tool': {
        const v = need();
        if (v !== 'wrk' && v !== 'autocannon' && v !== 'auto') throw new UsageError(`--tool expects wrk, autocannon or auto, got "${v}"`);
        opts.tool = v;
        break;
      }
      default: throw new UsageError(`unknown option --${name}`);
    }
  }
  if (opts.rssHigh <= opts.rssLow) throw new UsageError(`--rss-high (${opts.rssHigh}) must be greater than --rss-low (${opts.rssLow})`);
  return opts;
}
