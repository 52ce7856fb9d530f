import { setTimeout as sleep } from 'node:timers/promises';
import { profilerMissing } from '../lib/probe-profiler.ts';
import { ServerProcess } from '../lib/server-process.ts';
import type { Measurement, Scenario } from './scenario.ts';
import { profiledTarget } from './profiled-target.ts';

const MB = 2 ** 20;
const STEPS = 4;

/**
 * Memory of a profiled server under sustained traffic: RSS after `--rss-low` requests and after
 * `--rss-high`, with readings at even steps between (the shape tells warm-up from a leak), and
 * the JS heap beside RSS (which tells a JavaScript leak from native memory: SQLite, buffers).
 * Retention (PROFILER_MAX_PROFILES, default 10,000) caps what is kept, so past the low mark the
 * process should hold steady.
 */
export const profilerRss: Scenario = {
  name: 'profiler-rss',
  title: 'RSS of a profiled server (SQLite storage) from the low to the high request count',
  async skipReason(ctx) {
    const target = await profiledTarget(ctx);
    return profilerMissing(target.spec, ctx.root, target.request.path);
  },
  async run(ctx) {
    const { options, generator, log } = ctx;
    const target = await profiledTarget(ctx);
    const server = await ServerProcess.start(target.spec, ctx.root);
    try {
      const reading = async (label: string) => {
        // Profiles are written after the response; let the queue drain before reading.
        await sleep(1500);
        const heap = (await server.memoryUsage())?.heapUsed ?? Number.NaN;
        const rss = await server.rssBytes();
        return { label, rss, heap };
      };
      const readings = [await reading('at start')];
      let sent = 0;
      const marks = [options.rssLow, ...Array.from({ length: STEPS }, (_, i) => Math.round(options.rssLow + ((options.rssHigh - options.rssLow) * (i + 1)) / STEPS))];
      let rate = 0;
      for (const mark of marks) {
        log(`  up to ${mark} requests`);
        const r = await generator.run(server.url, target.request, { durationSeconds: 3600, connections: 10, requests: mark - sent });
        if (r.errors > 0) throw new Error(`${r.errors} socket errors or timeouts while loading ${target.spec.name}`);
        sent += r.requests;
        rate = r.requestsPerSecond;
        readings.push(await reading(`after ${sent.toLocaleString('en-US')} requests`));
      }
      const low = readings[1]!;
      const high = readings[readings.length - 1]!;
      const growth = (high.rss - low.rss) / MB;
      const measurements: Measurement[] = readings.flatMap((r) => [
        { name: `RSS ${r.label}`, value: r.rss / MB, unit: 'MB' },
        { name: `  JS heap used ${r.label}`, value: r.heap / MB, unit: 'MB' },
      ]);
      measurements.push({ name: 'RSS growth, low to high', value: growth, unit: 'MB' }, { name: 'JS heap growth, low to high', value: (high.heap - low.heap) / MB, unit: 'MB' }, { name: 'rate while profiled (last step)', value: rate, unit: 'req/s' });
      return {
        kind: 'measure',
        measurements,
        metrics: { [`rss-growth-mb:${target.spec.name}`]: growth, [`heap-growth-mb:${target.spec.name}`]: (high.heap - low.heap) / MB },
        notes: [`${target.spec.name} (${target.spec.description}): ${target.request.method} ${target.request.path}, 10 connections`],
      };
    } finally {
      await server.stop();
    }
  },
};
