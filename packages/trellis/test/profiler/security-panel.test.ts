/**
 * The Security panel (issue 16, item 2): who the request ran as, with the roles the hierarchy
 * adds; each authenticator and how it ended (never the credential); the access decision log with
 * every voter's vote, for path rules, `security` and `securityPostDenormalize`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';
import type { SecurityData } from '../../src/profiler/panels/security/security-collector.ts';
import { BROWSER } from './profiler-app.ts';

test('the security panel: user, roles, authenticators, decisions and votes; no credential anywhere', async () => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
  try {
    const login = await app.inject({ method: 'POST', url: '/auth', payload: { email: 'alice@bookshop.test', password: 'alice-password' } });
    assert.equal(login.statusCode, 200);
    const token = (login.json() as { token: string }).token;
    const { rows } = await sql<{ id: number; email: string }>`select id, email from users`.execute(database);
    const bob = rows.find((r) => r.email === 'bob@bookshop.test')!;
    const profileOf = async (res: { headers: Record<string, unknown> }) => {
      await app.profiler!.settled();
      const tokenOf = res.headers['x-debug-token'] as string;
      const json = (await app.inject({ url: `/_profiler/${tokenOf}.json` })).body;
      const page = (await app.inject({ url: `/_profiler/${tokenOf}?panel=security`, headers: { accept: BROWSER } })).body;
      return { data: (JSON.parse(json) as { collectors: { security: SecurityData } }).collectors.security, json, page };
    };

    // Alice posts a review as Bob: `security` (ROLE_USER) grants, `securityPostDenormalize` denies.
    const posted = await app.inject({
      method: 'POST',
      url: '/reviews',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/ld+json' },
      payload: { rating: 4, body: 'Great', author: `/users/${bob.id}`, book: '/books/1' },
    });
    assert.equal(posted.statusCode, 403);
    const { data, json, page } = await profileOf(posted);
    assert.equal(data.user?.identifier, 'alice@bookshop.test');
    assert.deepEqual(data.user?.roles, ['ROLE_USER']);
    assert.deepEqual(data.authenticators.map((a) => a.outcome), ['success']);
    assert.deepEqual(
      data.decisions.map((d) => [d.stage, d.attribute, d.granted, d.message]),
      [
        ['security', 'ROLE_USER', true, null],
        ['post_denormalize', 'authoredByUser', false, 'You may only post reviews as yourself.'],
      ],
    );
    assert.deepEqual(data.decisions[0]!.votes.map((v) => [v.voter, v.attribute, v.vote]), [['role', 'ROLE_USER', 'grant']]);
    assert.equal(data.strategy, 'affirmative');
    assert.match(data.decisions[1]!.expression ?? '', /authoredByUser|user/);
    assert.doesNotMatch(data.decisions[1]!.expression ?? '', /\S {2,}\S|\S +\)/, 'blanked type annotations are not shown as runs of spaces');
    assert.equal(data.denied, 1);
    // securityPostDenormalize shows the object it judged (and the previous one: none for a create).
    const judged = data.decisions[1] as unknown as { object: Record<string, unknown> | null; previous: unknown };
    assert.equal(judged.object?.rating, 4);
    assert.equal(judged.object?.body, 'Great');
    assert.equal(judged.previous, null);
    assert.match(page, /<details class="pf-objects"><summary>Objects<\/summary>/);
    assert.equal(json.includes(token), false, 'the bearer token is nowhere in the profile');
    assert.match(page, /<h2>Security<\/h2>/);
    assert.match(page, /ACCESS DENIED/);
    assert.match(page, /You may only post reviews as yourself\./);
    assert.match(page, /<a[^>]*data-panel="security"[^>]*>[\s\S]*?1 denied/);
    assert.equal(page.includes(token), false);

    // An admin deleting a review he did not write: the function rule asks isGranted('ROLE_ADMIN'),
    // and the role comes through the hierarchy.
    const admin = (await app.inject({ method: 'POST', url: '/auth', payload: { email: 'admin@bookshop.test', password: 'admin-password' } })).json() as { token: string };
    const removed = await app.inject({ method: 'DELETE', url: '/reviews/1', headers: { authorization: `Bearer ${admin.token}` } });
    assert.equal(removed.statusCode, 204);
    const byAdmin = await profileOf(removed);
    assert.equal(byAdmin.data.user?.identifier, 'admin@bookshop.test');
    assert.ok(byAdmin.data.user!.reachableRoles.includes('ROLE_USER'), `reachable: ${byAdmin.data.user!.reachableRoles.join(', ')}`);
    const check = byAdmin.data.decisions.find((d) => d.stage === 'security')!;
    assert.equal(check.granted, true);
    assert.ok(check.votes.some((v) => v.attribute === 'ROLE_ADMIN' && v.vote === 'grant' && v.subject === 'object #1'), JSON.stringify(check.votes));
    assert.match(byAdmin.page, /Inherited roles<\/th><td>[^<]*ROLE_USER/);

    // A forged token: the authenticator fails with its reason, the credential is not shown.
    const forged = `${token.slice(0, -6)}AAAAAA`;
    const refused = await app.inject({ url: '/books/1', headers: { authorization: `Bearer ${forged}` } });
    assert.equal(refused.statusCode, 401);
    const failed = await profileOf(refused);
    assert.equal(failed.data.user, null);
    assert.equal(failed.data.authenticators[0]?.outcome, 'failure');
    assert.ok((failed.data.authenticators[0]?.reason ?? '').length > 0);
    assert.equal(failed.json.includes(forged), false);
    assert.match(failed.page, /anonymous/);

    // Nobody, nothing checked: an empty panel and no badge.
    const anonymous = await app.inject({ url: '/books/1' });
    const none = await profileOf(anonymous);
    assert.equal(none.data.user, null);
    assert.doesNotMatch(none.page, /<a[^>]*data-panel="security"[^>]*>[^<]*<span class="pf-badge/);
  } finally {
    await app.close();
    await database.destroy();
  }
});
