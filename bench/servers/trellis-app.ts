/**
 * A Trellis app with no resources: the kernel alone, plus one trivial JSON route. NODE_ENV,
 * APP_DEBUG, PROFILER, PROFILER_DSN and LOG_LEVEL come from the environment like any Trellis app.
 */
import { createApp, loadConfig } from 'trellis';
import { announceUrl } from '../lib/server-process.ts';
import { quietLogger } from './quiet-logger.ts';
import { answerMemory } from './answer-memory.ts';

const config = loadConfig();
const app = await createApp({ config, name: 'Bench', tls: null, logger: quietLogger(config.logLevel, config.debug) });
app.get('/hello', async () => ({ hello: 'world' }));
// An HTML page of the app's own, for the web debug toolbar's cost (scenarios/html-page.ts).
const PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Bench</title></head><body><h1>Bench</h1><p>${'An HTML page of about two kilobytes. '.repeat(50)}</p></body></html>`;
app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', "default-src 'none'").send(PAGE));
answerMemory();
announceUrl(await app.listen({ host: '127.0.0.1', port: 0 }));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
