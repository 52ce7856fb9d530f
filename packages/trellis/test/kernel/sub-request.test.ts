import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createApp, subscribe } from '../../src/index.ts';
import type { SubRequestEvent } from '../../src/observe/channels.ts';
import { testConfig } from '../../src/testing/index.ts';

test('an error is rendered in a child request context: its own id, linked to the failing request, observable', async () => {
  const app = await createApp({ config: testConfig({ PROFILER: '0' }), tls: null });
  await app.ready();
  const started: SubRequestEvent[] = [];
  const ended: SubRequestEvent[] = [];
  const offStart = subscribe('subRequestStart', (e) => started.push(e));
  const offEnd = subscribe('subRequestEnd', (e) => ended.push(e));
  const errors: number[] = [];
  const offError = subscribe('error', (e) => errors.push(e.status));
  try {
    const res = await app.inject({ method: 'GET', url: '/robots.txt?x=1', headers: { accept: 'text/html' } });
    assert.equal(res.statusCode, 404);
    assert.equal(started.length, 1);
    assert.equal(ended.length, 1);
    const sub = ended[0]!.subRequest;
    assert.equal(sub.purpose, 'error');
    assert.equal(sub.method, 'GET');
    assert.equal(sub.url, '/robots.txt?x=1');
    assert.equal(sub.statusCode, 404);
    assert.equal(sub.contentType, 'text/html');
    assert.notEqual(sub.id, String(sub.parent.id));
    assert.equal(ended[0]!.parent, started[0]!.parent);
    assert.deepEqual(errors, [404]);
    // A successful request renders no error and so opens no sub-request.
    await app.inject({ method: 'GET', url: '/' });
    assert.equal(started.length, 1);
  } finally {
    offStart();
    offEnd();
    offError();
    await app.close();
  }
});
