/**
 * An async context outlives its request (a keep-alive socket's timer, a pooled connection, a
 * pending promise): what the request scope holds stays alive with it. The request, and its body,
 * must not: under 900 KB uploads each idle connection kept its last upload alive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncResource } from 'node:async_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createApp } from '../../src/app/create-app.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { currentRequestScope } from '../../src/kernel/request-scope.ts';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

for (const profiler of ['0', '1']) {
  test(`debug, PROFILER=${profiler}: a context the request left behind keeps its log only, not its body`, async () => {
    const app = await createApp({ config: testConfig({ PROFILER: profiler, PROFILER_DSN: 'memory:' }), tls: null });
    let bodies: WeakRef<object>[] = [];
    const kept: (<T>(run: () => T) => T)[] = [];
    app.post('/upload', async (request) => {
      bodies.push(new WeakRef(request.body as object));
      kept.push(AsyncResource.bind(<T>(run: () => T): T => run()));
      return { ok: true };
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ method: 'POST', url: '/upload', payload: { note: 'u'.repeat(100_000) } });
        assert.equal(res.statusCode, 200);
      }
      await app.profiler?.settled();
      // The profiler hands requests on a turn after their response.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      assert.deepEqual(bodies.map((b) => b.deref() === undefined), [true, true, true], 'no body is alive');
      const scope = kept[0]!(() => currentRequestScope());
      assert.ok(scope, 'the context still reaches its scope');
      assert.deepEqual(Object.keys(scope), ['logs']);
      assert.ok(Array.isArray(scope.logs));
    } finally {
      bodies = [];
      await app.close();
    }
  });
}
