/**
 * The API panel (issue 16, item 4): the resource and operation, how the format was chosen
 * (extension or Accept), each pipeline stage with its outcome, the filters as sent, and the
 * conditional outcome; and the stage each database query ran in (Database panel).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';
import type { ApiData } from '../../src/profiler/panels/api/api-collector.ts';
import type { DbData } from '../../src/profiler/panels/db/db-collector.ts';
import { BROWSER } from './profiler-app.ts';

test('the API panel: operation, negotiation, stages, filters, conditional outcome; queries know their stage', async () => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
  const profileOf = async (res: { headers: Record<string, unknown> }) => {
    await app.profiler!.settled();
    const token = res.headers['x-debug-token'] as string;
    const collectors = ((await app.inject({ url: `/_profiler/${token}.json` })).json() as { collectors: { api: ApiData; db: DbData } }).collectors;
    const page = (await app.inject({ url: `/_profiler/${token}?panel=api`, headers: { accept: BROWSER } })).body;
    return { api: collectors.api, db: collectors.db, page };
  };
  try {
    const item = await app.inject({ url: '/books/1.jsonld' });
    assert.equal(item.statusCode, 200);
    // Server-Timing: the phases up to the response, the database, the total (issue 16, item 6).
    assert.match(item.headers['server-timing'] as string, /^observe;dur=[\d.]+, guard;dur=[\d.]+, .*handler;dur=[\d.]+, .*db;dur=[\d.]+;desc="\d+ quer(y|ies)", total;dur=[\d.]+$/);
    const byExtension = await profileOf(item);
    assert.equal(byExtension.api.resource, 'Book');
    assert.deepEqual([byExtension.api.negotiation?.format, byExtension.api.negotiation?.decidedBy, byExtension.api.negotiation?.extension], ['jsonld', 'extension', 'jsonld']);
    const stages = byExtension.api.stages.map((s) => `${s.stage}:${s.outcome}`);
    assert.ok(stages.includes('provide:ok') && stages.includes('serialize:ok'), stages.join(' '));
    assert.ok(stages.includes('deserialize:skipped'), stages.join(' '));
    // Each stage starts where the one before it ended, to the microsecond (what lets a snapshot send one start).
    const us = (ms: number) => Math.round(ms * 1000);
    byExtension.api.stages.slice(1).forEach((s, i) => assert.equal(us(s.startMs), us(byExtension.api.stages[i]!.startMs) + us(byExtension.api.stages[i]!.durationMs), s.stage));
    assert.ok(byExtension.db.queries.length > 0);
    assert.ok(byExtension.db.queries.every((q) => q.stage === 'provide'), JSON.stringify(byExtension.db.queries.map((q) => q.stage)));
    assert.match(byExtension.page, /Decided by<\/th><td>the path's extension <code>\.jsonld<\/code>/);
    assert.match(byExtension.page, /<a[^>]*data-panel="api"[^>]*>[\s\S]*?jsonld/);

    // The Performance panel puts phases, stages and queries on one axis; a threshold hides short ones.
    const timeline = (min?: string) => app.inject({ url: `/_profiler/${item.headers['x-debug-token']}?panel=time${min ? `&min=${min}` : ''}`, headers: { accept: BROWSER } }).then((r) => r.body);
    const full = await timeline();
    assert.match(full, /<div class="row phase"><span class="mono">handler<\/span>/);
    assert.match(full, /<div class="row stage"><span class="mono">provide<\/span>/);
    assert.match(full, /<div class="row db"><span class="mono">query #1<\/span><svg[^>]*><title>[\d.]+ ms select /);
    // The request's memory: heap in use at start and end, and the process RSS (sampled).
    assert.match(full, /<div class="value">\d+\.\d MB → \d+\.\d MB<\/div><div class="label">JS heap in use<\/div>/);
    assert.match(full, /<div class="value">\d+\.\d MB<\/div><div class="label">Process RSS<\/div>/);
    const memory = ((await app.inject({ url: `/_profiler/${item.headers['x-debug-token']}.json` })).json() as { collectors: { time: { memory: { heapStart: number; heapEnd: number; rss: number } } } }).collectors.time.memory;
    assert.ok(memory.heapStart > 1e6 && memory.heapEnd > 1e6 && memory.rss > memory.heapEnd, JSON.stringify(memory));
    const filtered = await timeline('1000');
    assert.doesNotMatch(filtered, /<div class="row db">/);
    assert.match(filtered, /<div class="row phase">/);
    assert.match(filtered, /<span class="pf-note">\d+ hidden<\/span>/);
    assert.match(filtered, /<input type="number" name="min" min="0" step="0.1" value="1000">/);

    const list = await profileOf(await app.inject({ url: '/books?title=the&order[title]=asc', headers: { accept: 'application/hal+json;q=0.9, application/json;q=0.5' } }));
    assert.deepEqual([list.api.negotiation?.format, list.api.negotiation?.decidedBy], ['jsonhal', 'accept']);
    assert.equal(list.api.negotiation?.accept, 'application/hal+json;q=0.9, application/json;q=0.5');
    assert.deepEqual(list.api.query, { title: 'the', 'order[title]': 'asc' });
    assert.match(list.page, /Filters, order and pagination, as sent/);
    // As the operation reads them: each filter's bound values, and the page (worked out when shown).
    assert.match(list.page, /<td class="mono">search<\/td><td class="mono">title<\/td><td><code>\[&quot;%the%&quot;\]<\/code><\/td>/);
    assert.match(list.page, /<td class="mono">order<\/td><td class="mono">order\[title\]<\/td><td><span class="pf-note">binds no value/);
    assert.match(list.page, /Pagination: page 1, 30 per page\./);

    const etag = item.headers.etag as string;
    const notModified = await app.inject({ url: '/books/1.jsonld', headers: { 'if-none-match': etag } });
    assert.equal(notModified.statusCode, 304);
    const conditional = await profileOf(notModified);
    assert.deepEqual(conditional.api.conditional, { ifMatch: null, ifNoneMatch: etag, etag, outcome: 'not modified' });

    // Provider and processor by name; a 422's input and violations.
    assert.ok(byExtension.api.provider && byExtension.api.provider !== '(function)', `provider: ${byExtension.api.provider}`);
    assert.ok(byExtension.api.processor, 'processor');
    const login = (await app.inject({ method: 'POST', url: '/auth', payload: { email: 'alice@bookshop.test', password: 'alice-password' } })).json() as { token: string };
    const invalid = await app.inject({ method: 'POST', url: '/reviews', headers: { authorization: `Bearer ${login.token}`, 'content-type': 'application/ld+json' }, payload: { rating: 9, body: 'Too good', author: '/users/2', book: '/books/1' } });
    assert.equal(invalid.statusCode, 422, invalid.body);
    const rejected = await profileOf(invalid);
    assert.equal(rejected.api.inputFormat, 'application/ld+json');
    assert.match(rejected.page, /<h3>Input <small class="pf-note">\d+ bytes<\/small><\/h3><pre class="pf-body">[^<]*&quot;rating&quot;: 9/);
    assert.match(rejected.page, /<h3>Validation<\/h3><table class="pf-table pf-violations">[\s\S]*<td class="mono">rating<\/td>/);

    const nonResource = await profileOf(await app.inject({ url: '/docs.json' }));
    assert.equal(nonResource.api.resource, null);
    assert.match(nonResource.page, /No resource operation ran/);
  } finally {
    await app.close();
    await database.destroy();
  }
});
