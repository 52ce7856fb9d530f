import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ServerProcess, type ServerSpec } from './server-process.ts';
import { BOOKSHOP_SCRIPT } from './bookshop-node-args.ts';

/** HS256 secret shared by every bookshop server of a run, so a token from one is valid on all. */
export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-01';

export interface BookshopFixture {
  /** `sqlite:<file>`: seeded once, then opened by every server of the run. */
  readonly databaseUrl: string;
  /** Bearer tokens from POST /auth, by seeded account. */
  readonly tokens: { readonly admin: string; readonly alice: string };
}

let cached: Promise<BookshopFixture> | null = null;

export const BOOKSHOP_MODULE = 'examples/bookshop/src/bookshop.ts';

export function bookshopMissing(root: string): string | null {
  return existsSync(join(root, BOOKSHOP_MODULE)) ? null : `the bookshop resources have not landed (no ${BOOKSHOP_MODULE})`;
}

async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(new URL('/auth', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 200 || !body.token) throw new Error(`POST /auth for ${email} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.token;
}

/**
 * Seeds one bookshop database for the whole run by starting the bookshop once on an empty file
 * (it migrates and seeds on first start), and signs in the seeded accounts while it runs.
 */
export function bookshopFixture(root: string, workDir: string): Promise<BookshopFixture> {
  cached ??= (async () => {
    const databaseUrl = `sqlite:${join(workDir, 'bookshop.db')}`;
    const spec: ServerSpec = {
      name: 'bookshop-seed',
      script: BOOKSHOP_SCRIPT,
      env: { NODE_ENV: 'production', APP_DEBUG: '0', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, JWT_SECRET: BENCH_JWT_SECRET },
      description: 'seeds the database',
    };
    const server = await ServerProcess.start(spec, root, 120_000);
    try {
      const admin = await login(server.url, 'admin@bookshop.test', 'admin-password');
      const alice = await login(server.url, 'alice@bookshop.test', 'alice-password');
      return { databaseUrl, tokens: { admin, alice } };
    } finally {
      await server.stop();
    }
  })();
  return cached;
}
