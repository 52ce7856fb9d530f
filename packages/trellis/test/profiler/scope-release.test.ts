/**
 * A request's profile scope (what `currentProfile` gives code running for it) outlives the
 * request in every async context the request created: a keep-alive socket's timer, a pooled
 * connection, a promise left pending. Once the request is recorded, the scope must hold nothing:
 * its queries' parameters were views into the request's upload, and under 900 KB writes each idle
 * connection kept one upload alive (issue 14's RSS).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncResource } from 'node:async_hooks';
import { sql } from 'kysely';
import { createApp } from '../../src/app/create-app.ts';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { currentProfile } from '../../src/profiler/profile-recorder.ts';

const LONG = 'u'.repeat(900 * 1024);

/** An app whose one route runs a query with a 900 KB parameter and keeps its async context. */
async function appKeepingContexts(env: Record<string, string> = {}) {
  const database = openDatabase('sqlite::memory:');
  const app = await createApp({ config: testConfig({ PROFILER_DSN: 'memory:', ...env }), database, tls: null });
  /** Runners bound to each request's async context, as a timer or a pooled socket holds it. */
  const kept: (<T>(run: () => T) => T)[] = [];
  app.post('/upload', async () => {
    await sql`select length(${LONG}) as n`.execute(database);
    kept.push(AsyncResource.bind(<T>(run: () => T): T => run()));
    return { ok: true };
  });
  await app.ready();
  return { app, database, kept };
}

test('a recorded request leaves its scope empty: its queries are in the profile only', async () => {
  const { app, database, kept } = await appKeepingContexts();
  try {
    const res = await app.inject({ method: 'POST', url: '/upload' });
    assert.equal(res.statusCode, 200);
    await app.profiler!.settled();
    const scope = kept[0]!(() => currentProfile.getStore());
    assert.ok(scope, 'the retained context still reaches the scope');
    assert.equal(scope.closed, true);
    assert.deepEqual(scope.queries, []);
    assert.deepEqual(scope.httpCalls, []);
    const profile = (await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json() as { collectors: { db: { queries: { parameters: unknown[] }[] } } };
    assert.deepEqual((profile.collectors.db.queries[0]!.parameters[0] as { length: number }).length, LONG.length);
  } finally {
    await app.close();
    await database.destroy();
  }
});

test('a query run later in a retained context is not filed in the closed scope', async () => {
  const { app, database, kept } = await appKeepingContexts();
  try {
    const res = await app.inject({ method: 'POST', url: '/upload' });
    await app.profiler!.settled();
    const scope = await kept[0]!(async () => {
      await sql`select ${LONG} as again`.execute(database);
      return currentProfile.getStore();
    });
    assert.equal(scope?.closed, true);
    assert.deepEqual(scope?.queries, []);
    const profile = (await app.inject({ url: `/_profiler/${res.headers['x-debug-token']}.json` })).json() as { collectors: { db: { count: number } } };
    assert.equal(profile.collectors.db.count, 1, 'the profile has the one query the request ran');
  } finally {
    await app.close();
    await database.destroy();
  }
});

test('a request the profiler does not keep (PROFILER_SAMPLE=0) leaves its scope empty too', async () => {
  const { app, database, kept } = await appKeepingContexts({ PROFILER_SAMPLE: '0' });
  try {
    const res = await app.inject({ method: 'POST', url: '/upload' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-debug-token'], undefined);
    await app.profiler!.settled();
    const scope = kept[0]!(() => currentProfile.getStore());
    assert.equal(scope?.closed, true);
    assert.deepEqual(scope?.queries, []);
  } finally {
    await app.close();
    await database.destroy();
  }
});
