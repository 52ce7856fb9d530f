import { setTimeout as sleep } from 'node:timers/promises';
import { profilerMissing } from '../lib/probe-profiler.ts';
import { ServerProcess } from '../lib/server-process.ts';
import type { Scenario } from './scenario.ts';
import { profiledTarget } from './profiled-target.ts';

const MB = 2 ** 20;

/**
 * Memory of a profiled server under sustained traffic: RSS after `--rss-low` requests and after
 * `--rss-high`. Retention (PROFILER_MAX_PROFILES, default 10,000) caps what is kept, so past the
 * low mark the process should hold steady; growth beyond that is a leak per request.
 */
export const profilerRss: Scenario = {
  name: 'profiler-rss',
  title: 'RSS of a profiled server (SQLite storage) after the low and high request counts',
  async skipReason(ctx) {
    const target = await profiledTarget(ctx);
    return profilerMissing(target.spec, ctx.root, target.request.path);
  },
  async run(ctx) {
    const { options, generator, log } = ctx;
    const target = await profiledTarget(ctx);
    const server = await ServerProcess.start(target.spec, ctx.root);
    try {
      const settle = async () => {
        // Profiles are written after the response; let the queue drain before reading RSS.
        await sleep(1500);
        return server.rssBytes();
      };
      const atStart = await server.rssBytes();
      const load = async (requests: number) => {
        const r = await generator.run(server.url, target.request, { durationSeconds: 3600, connections: 10, requests });
        if (r.errors > 0) throw new Error(`${r.errors} socket errors or timeouts while loading ${target.spec.name}`);
        return r;
      };
      log(`  ${options.rssLow} requests`);
      const first = await load(options.rssLow);
      const low = await settle();
      log(`  ${options.rssHigh - first.requests} more requests`);
      const second = await load(options.rssHigh - first.requests);
      const high = await settle();
      const total = first.requests + second.requests;
      const growth = (high - low) / MB;
      return {
        kind: 'measure',
        measurements: [
          { name: 'RSS at start', value: atStart / MB, unit: 'MB' },
          { name: `RSS after ${first.requests.toLocaleString('en-US')} requests`, value: low / MB, unit: 'MB' },
          { name: `RSS after ${total.toLocaleString('en-US')} requests`, value: high / MB, unit: 'MB' },
          { name: 'growth between the two', value: growth, unit: 'MB' },
          { name: 'rate while profiled', value: second.requestsPerSecond, unit: 'req/s' },
        ],
        metrics: { [`rss-growth-mb:${target.spec.name}`]: growth },
        notes: [`${target.spec.name} (${target.spec.description}): ${target.request.method} ${target.request.path}, 10 connections`],
      };
    } finally {
      await server.stop();
    }
  },
};
