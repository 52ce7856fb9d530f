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
answerMemory();
announceUrl(await app.listen({ host: '127.0.0.1', port: 0 }));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
