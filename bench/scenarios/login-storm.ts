import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_JWT_SECRET, bookshopFixture, bookshopMissing } from '../lib/bookshop-fixture.ts';
import { ServerProcess } from '../lib/server-process.ts';
import type { Measurement, Scenario } from './scenario.ts';
import { PRODUCTION_ENV } from './server-specs.ts';
import { BOOKSHOP_SCRIPT } from '../lib/bookshop-node-args.ts';

const MB = 2 ** 20;
const SCRIPT = BOOKSHOP_SCRIPT;
const CONNECTIONS = 16;

/**
 * A login storm: 16 connections posting wrong passwords to POST /auth (each one scrypt, ~134 MB
 * of memory while it runs). Measured twice on the production bookshop: with the throttle off, so
 * every attempt reaches scrypt and only the password-check bound (PASSWORD_HASH_CONCURRENCY)
 * holds memory; and with the default throttle, where a client past its budget gets a 429 without
 * one. RSS is sampled every 100 ms during the storm: its peak over the idle figure is the point.
 */
export const loginStorm: Scenario = {
  name: 'login-storm',
  title: `POST /auth with a wrong password, ${CONNECTIONS} connections: RSS, latency and statuses, throttle off and on`,
  skipReason: async (ctx) => bookshopMissing(ctx.root),
  async run(ctx) {
    const fixture = await bookshopFixture(ctx.root, ctx.workDir);
    const seconds = ctx.options.quick ? 3 : 10;
    const measurements: Measurement[] = [];
    const metrics: Record<string, number> = {};
    for (const [label, throttle] of [['throttle off', { LOGIN_THROTTLE: 'off', LOGIN_ACCOUNT_THROTTLE: 'off' }], ['default throttle', {}]] as const) {
      const env = { ...PRODUCTION_ENV, DATABASE_URL: fixture.databaseUrl, JWT_SECRET: BENCH_JWT_SECRET, ...throttle };
      const server = await ServerProcess.start({ name: `bookshop-login-${label}`, script: SCRIPT, env, description: label }, ctx.root);
      try {
        await sleep(500);
        const idle = await server.rssBytes();
        let peak = idle;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            peak = Math.max(peak, await server.rssBytes());
            await sleep(100);
          }
        })();
        ctx.log(`  ${label}: ${seconds} s storm`);
        const result = await ctx.generator.run(server.url, {
          method: 'POST',
          path: '/auth',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'alice@bookshop.test', password: 'not-her-password' }),
        }, { durationSeconds: seconds, connections: CONNECTIONS });
        sampling = false;
        await sampler;
        const key = label === 'throttle off' ? 'off' : 'on';
        measurements.push(
          { name: `${label}: RSS idle`, value: idle / MB, unit: 'MB' },
          { name: `${label}: RSS peak during the storm`, value: peak / MB, unit: 'MB' },
          { name: `${label}: answers/s`, value: result.requestsPerSecond, unit: 'req/s' },
          { name: `${label}: p50 latency`, value: result.p50Ms, unit: 'ms' },
          { name: `${label}: p99 latency`, value: result.p99Ms, unit: 'ms' },
        );
        metrics[`login-storm-rss-growth-mb:${key}`] = (peak - idle) / MB;
        metrics[`login-storm-p99-ms:${key}`] = result.p99Ms;
      } finally {
        await server.stop();
      }
    }
    return {
      kind: 'measure',
      measurements,
      metrics,
      notes: [`${CONNECTIONS} connections, ${seconds} s each; scrypt N=2^17 r=8 (~134 MB per check); PASSWORD_HASH_CONCURRENCY default 2; default throttle 20/1m per client, 10 failures/15m per account`],
    };
  },
};
