import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createApp, createLogger } from '../../src/index.ts';
import { testConfig } from '../../src/testing/index.ts';
import type { ProfilerPluginOptions } from '../../src/profiler/index.ts';

export const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * A debug app with the in-memory profiler and two routes of its own: `/hello` and `POST /echo`
 * (returns its JSON body, after logging a line); `extend` adds more before the app is ready.
 */
export async function profilerApp(
  env: Record<string, string> = {},
  profiler: Partial<ProfilerPluginOptions> = {},
  extend: (app: FastifyInstance) => void = () => {},
): Promise<FastifyInstance> {
  const config = testConfig({ LOG_LEVEL: 'debug', ...env });
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  const logger = createLogger({ level: 'debug', captureRequestRecords: config.debug, destination: sink });
  const app = await createApp({ config, tls: null, logger, profiler: profiler as Record<string, unknown> });
  app.get('/hello', async () => ({ hello: 'world' }));
  app.post('/echo', async (request) => {
    request.log.info({ channel: 'app', received: request.body }, `echo ${request.url}`);
    return request.body;
  });
  extend(app);
  await app.ready();
  return app;
}

/** Every record in the store as stored (what redaction must have reached before storage), newest first. */
export async function allRecords(app: FastifyInstance) {
  await app.profiler!.settled();
  const summaries = await app.profiler!.storage.find({ limit: 1000 });
  return Promise.all(summaries.map((s) => app.profiler!.storage.read(s.token)));
}

/** Every profile in the store, newest first (after pending writes). */
export async function allProfiles(app: FastifyInstance) {
  await app.profiler!.settled();
  const summaries = await app.profiler!.storage.find({ limit: 1000 });
  return Promise.all(summaries.map((s) => app.profiler!.read(s.token)));
}
