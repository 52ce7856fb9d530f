import { profilerMissing } from '../lib/probe-profiler.ts';
import { ServerProcess } from '../lib/server-process.ts';
import { median, percentile } from '../lib/stats.ts';
import type { Measurement, Scenario } from './scenario.ts';
import { profiledTarget } from './profiled-target.ts';

const RENDERS = 100;

/**
 * Time to render the profiler's pages, measured at the client over loopback keep-alive, one
 * request at a time, after a few seconds of traffic filled the store (retention keeps 10,000).
 * The budget applies to the profile pages; the search listing is reported beside them.
 */
export const profilerPage: Scenario = {
  name: 'profiler-page',
  title: 'Profiler pages: /_profiler/<token> (200 and 404 profiles), exception panel, search',
  async skipReason(ctx) {
    const target = await profiledTarget(ctx);
    return profilerMissing(target.spec, ctx.root, target.request.path);
  },
  async run(ctx) {
    const target = await profiledTarget(ctx);
    const server = await ServerProcess.start(target.spec, ctx.root);
    try {
      ctx.log(`  filling the store: ${target.request.method} ${target.request.path} for ${ctx.options.warmupSeconds + ctx.options.durationSeconds} s`);
      await ctx.generator.run(server.url, target.request, { durationSeconds: ctx.options.warmupSeconds + ctx.options.durationSeconds, connections: 10 });
      const tokenOf = async (path: string, headers: Record<string, string>) => {
        const res = await fetch(new URL(path, server.url), { headers });
        await res.arrayBuffer();
        const token = res.headers.get('x-debug-token');
        if (!token) throw new Error(`GET ${path} carried no X-Debug-Token`);
        return token;
      };
      const ok = await tokenOf(target.request.path, { ...target.request.headers });
      const notFound = await tokenOf('/robots.txt', { accept: 'text/html' });
      const pages: Array<[string, string, boolean]> = [
        ['profile page of a 200', `/_profiler/${ok}`, true],
        ['profile page of a 404', `/_profiler/${notFound}`, true],
        ['profile page, latest', '/_profiler/latest', true],
        ['exception panel of a 404', `/_profiler/${notFound}/exception`, true],
        ['search, last 50', '/_profiler/search?limit=50', false],
      ];
      const measurements: Measurement[] = [];
      const budgeted: number[] = [];
      for (const [label, path] of pages) {
        const times: number[] = [];
        for (let i = 0; i < RENDERS + 5; i++) {
          const t = performance.now();
          const res = await fetch(new URL(path, server.url), { headers: { accept: 'text/html' } });
          const body = await res.text();
          const ms = performance.now() - t;
          if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body.slice(0, 200)}`);
          if (i >= 5) times.push(ms); // the first few compile templates and warm caches
        }
        if (pages.find((p) => p[0] === label)![2]) budgeted.push(...times);
        measurements.push({ name: `${label}: median`, value: median(times), unit: 'ms' }, { name: `${label}: p95`, value: percentile(times, 95), unit: 'ms' });
      }
      measurements.push({ name: 'profile pages together: p95', value: percentile(budgeted, 95), unit: 'ms' });
      return {
        kind: 'measure',
        measurements,
        metrics: { [`page-p95-ms:${target.spec.name}`]: percentile(budgeted, 95), [`page-median-ms:${target.spec.name}`]: median(budgeted) },
        notes: [`${target.spec.name} (${target.spec.description}); ${RENDERS} renders per page, one at a time, client-side time over loopback`],
      };
    } finally {
      await server.stop();
    }
  },
};
