import { compareServers } from '../lib/compare-servers.ts';
import { profilerMissing } from '../lib/probe-profiler.ts';
import type { Scenario } from './scenario.ts';
import { trellisServer } from './server-specs.ts';

const SCRIPT = 'bench/servers/trellis-app.ts';
const REQUEST = { method: 'GET', path: '/page', headers: { accept: 'text/html', 'sec-fetch-dest': 'document' } } as const;

/**
 * What the web debug toolbar costs an HTML page (issue 17): the same profiled debug server, with
 * the toolbar put into the page (a nonce, the markup before </body>, the CSP widened) and with
 * PROFILER_TOOLBAR=0. The bodies differ by the toolbar's markup, on purpose.
 */
export const htmlPage: Scenario = {
  name: 'html-page',
  title: 'GET /page → 200 text/html, profiled, with and without the web debug toolbar',
  async skipReason(ctx) {
    return profilerMissing(trellisServer(SCRIPT, 'trellis', 'debug', 'sqlite', ctx.workDir), ctx.root, REQUEST.path);
  },
  async run(ctx) {
    // Each its own profile store (the prefix names its SQLite file).
    const plain = trellisServer(SCRIPT, 'no-toolbar', 'debug', 'sqlite', ctx.workDir, { PROFILER_TOOLBAR: '0' });
    const toolbar = trellisServer(SCRIPT, 'toolbar', 'debug', 'sqlite', ctx.workDir);
    const result = await compareServers(ctx, {
      request: REQUEST,
      expectStatus: 200,
      baseline: plain.name,
      bytesFrom: plain.name,
      servers: [plain, toolbar],
      pairs: [['toolbar-ratio', toolbar.name, plain.name]],
    });
    return { ...result, notes: [`${plain.name}: PROFILER_TOOLBAR=0; ${toolbar.name}: the toolbar injected`, ...result.notes] };
  },
};
