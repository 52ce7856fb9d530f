import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { profilerApp } from './profiler-app.ts';

/** The phases of the profile a response names, in order. */
async function phasesOf(app: FastifyInstance, token: string): Promise<string[]> {
  await app.profiler!.settled();
  const profile = await app.profiler!.read(token);
  return (profile!.collectors as { time: { phases: { name: string }[] } }).time.phases.map((p) => p.name);
}

// The handler phase is published by the kernel's wrapper of every route (kernel/marked-handler.ts):
// once per request, whatever the route's kind, however it was registered.
describe('the handler phase', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await profilerApp({}, {}, (a) => {
      a.get('/sync', (_request, reply) => {
        reply.send({ sync: true });
      });
      a.register(
        async (scoped) => {
          scoped.get('/', async () => ({ prefixed: true }));
          scoped.get('/child', async () => ({ child: true }));
        },
        { prefix: '/scoped' },
      );
    });
  });
  after(() => app.close());

  const cases: [string, string, number][] = [
    ['GET', '/hello', 200],
    ['HEAD', '/hello', 200],
    ['GET', '/sync', 200],
    ['GET', '/scoped', 200],
    ['GET', '/scoped/', 200],
    ['GET', '/scoped/child', 200],
    ['HEAD', '/scoped/child', 200],
  ];
  for (const [method, url, status] of cases) {
    test(`${method} ${url}: exactly one handler phase, after the firewall`, async () => {
      const res = await app.inject({ method: method as 'GET', url });
      assert.equal(res.statusCode, status);
      const phases = await phasesOf(app, res.headers['x-debug-token'] as string);
      assert.equal(phases.filter((p) => p === 'handler').length, 1, phases.join(' '));
      assert.ok(phases.indexOf('handler') > phases.indexOf('firewall'), phases.join(' '));
    });
  }

  test('a 404 has no handler phase: no route ran', async () => {
    const res = await app.inject({ url: '/nowhere' });
    assert.equal(res.statusCode, 404);
    const phases = await phasesOf(app, res.headers['x-debug-token'] as string);
    assert.deepEqual(phases.filter((p) => p === 'handler'), []);
    assert.equal(phases[0], 'observe');
  });
});
