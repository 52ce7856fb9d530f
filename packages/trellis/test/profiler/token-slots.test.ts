/**
 * Processes sharing a Redis profile store draw their tokens from slots of their own: each knew
 * only the tokens stored when it started and those it issued, so one could hand a client a token
 * another had stored since, and the client's X-Debug-Token opened someone else's request (found by
 * the operator review: about 1 request in 1,700 with a full store).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { redisForTests } from '../../src/testing/services.ts';
import { profilerApp } from './profiler-app.ts';

const redis = await redisForTests();

describe('profile tokens of two processes on one Redis store', { skip: redis.skip }, () => {
  const prefix = `trellis-test:token-slots:${process.pid}:`;
  let one: FastifyInstance;
  let two: FastifyInstance;
  before(async () => {
    const env = { PROFILER_DSN: `${redis.url}?prefix=${prefix}` };
    one = await profilerApp(env);
    two = await profilerApp(env);
  });
  after(async () => {
    await one.profiler?.storage.purge();
    await Promise.all([one.close(), two.close()]);
  });

  test('each process issues tokens of its own slot (their first hex digit), so theirs never clash', async () => {
    const tokensOf = async (app: FastifyInstance) =>
      Promise.all(Array.from({ length: 40 }, async (_, i) => String((await app.inject({ url: `/hello?n=${i}` })).headers['x-debug-token'])));
    const [fromOne, fromTwo] = await Promise.all([tokensOf(one), tokensOf(two)]);
    const digits = (tokens: string[]) => new Set(tokens.map((t) => t[0]));
    assert.equal(digits(fromOne).size, 1, `one: ${fromOne.join(' ')}`);
    assert.equal(digits(fromTwo).size, 1, `two: ${fromTwo.join(' ')}`);
    assert.notEqual(fromOne[0]![0], fromTwo[0]![0]);
    // Each profile opens on the other process, as the request it was issued for.
    await Promise.all([one.profiler!.settled(), two.profiler!.settled()]);
    const opened = (await two.inject({ url: `/_profiler/${fromOne[7]}.json` })).json() as { url: string };
    assert.match(opened.url, /\/hello\?n=7$/);
  });
});
