import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { ENV, startBookshop, type BookshopProcess } from '../bookshop-process.ts';

/** The seeded accounts (examples/bookshop/src/seed.ts): Alice is /users/2, Bob /users/3. */
export const ALICE = { email: 'alice@bookshop.test', password: 'alice-password', iri: '/users/2' } as const;
export const BOB = { email: 'bob@bookshop.test', password: 'bob-password', iri: '/users/3' } as const;
export const ADMIN = { email: 'admin@bookshop.test', password: 'admin-password', iri: '/users/1' } as const;

export interface RunningBookshop {
  /** The base URL (`http://127.0.0.1:<port>`), once the process listens. */
  url(): string;
  /** A JWT for a seeded account, from POST /auth as any client gets one. */
  token(account: { email: string; password: string }): Promise<string>;
}

/**
 * `npm start` as a process for the whole test file (the real clients talk to it over a socket,
 * as they would to any server): started before the first test, stopped after the last.
 */
export function runningBookshop(env: Record<string, string> = {}): RunningBookshop {
  let shop: BookshopProcess;
  let base = '';
  before(async () => {
    shop = startBookshop({ ...ENV, JWT_SECRET: 'interop-tests-interop-tests-interop-tests', ...env });
    base = await shop.url;
  });
  after(async () => {
    await shop?.stop();
  });
  return {
    url: () => base,
    async token(account) {
      const res = await fetch(`${base}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: account.email, password: account.password }) });
      assert.equal(res.status, 200, `login as ${account.email}`);
      return ((await res.json()) as { token: string }).token;
    },
  };
}
