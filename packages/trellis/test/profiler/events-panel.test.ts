/**
 * The Events panel (issue 16, item 7): the request's diagnostics-channel events, in order, each
 * summarised; built from what the profile holds, secrets scrubbed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/data/database.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { createBookshop } from '../../../../examples/bookshop/src/bookshop.ts';
import type { EventsData } from '../../src/profiler/panels/events/events-collector.ts';
import { BROWSER } from './profiler-app.ts';

test('the events of a request that signs in and reads, in order, and of a 404', async () => {
  const database = openDatabase('sqlite::memory:');
  const app = await createBookshop({ config: testConfig({ PROFILER_DSN: 'memory:' }), database, tls: null, seed: { passwordCost: 1024 } });
  try {
    const login = (await app.inject({ method: 'POST', url: '/auth', payload: { email: 'alice@bookshop.test', password: 'alice-password' } })).json() as { token: string };
    const res = await app.inject({ url: '/reviews/1?api_key=events-canary-key', headers: { authorization: `Bearer ${login.token}` } });
    assert.equal(res.statusCode, 200);
    await app.profiler!.settled();
    const token = res.headers['x-debug-token'] as string;
    const json = (await app.inject({ url: `/_profiler/${token}.json` })).body;
    const data = (JSON.parse(json) as { collectors: { events: EventsData } }).collectors.events;
    const channels = data.events.map((e) => e.channel);
    const first = (channel: string) => channels.indexOf(channel);
    assert.ok(first('trellis:phase') === 0, channels.join(' '));
    assert.ok(first('trellis:security:authentication') > 0 && first('trellis:security:authentication') < first('trellis:resource:stage'), channels.join(' '));
    assert.ok(first('trellis:db:query') < first('trellis:security:authentication'), 'the user is loaded before the authenticator says success');
    assert.ok(channels.lastIndexOf('trellis:db:query') > first('trellis:negotiate'), channels.join(' '));
    assert.ok(data.events.every((e, i) => i === 0 || e.atMs >= data.events[i - 1]!.atMs), 'in time order');
    assert.match(data.events[first('trellis:security:authentication')]!.summary, /: success \(alice@bookshop\.test\)$/);
    assert.equal(data.channels['trellis:phase'], channels.filter((c) => c === 'trellis:phase').length);
    assert.equal(json.includes('events-canary-key') || json.includes(login.token), false);
    const page = (await app.inject({ url: `/_profiler/${token}?panel=events`, headers: { accept: BROWSER } })).body;
    assert.match(page, /<h2>Events<\/h2>/);
    assert.match(page, /<td class="mono">trellis:db:query<\/td><td>select /);

    const missing = await app.inject({ url: '/nowhere' });
    await app.profiler!.settled();
    const notFound = ((await app.inject({ url: `/_profiler/${missing.headers['x-debug-token']}.json` })).json() as { collectors: { events: EventsData } }).collectors.events;
    assert.equal(notFound.events.at(-1)?.channel, 'trellis:error');
    assert.equal(notFound.events.at(-1)?.summary, 'NotFoundHttpException: No route found for "GET /nowhere"');
  } finally {
    await app.close();
    await database.destroy();
  }
});
