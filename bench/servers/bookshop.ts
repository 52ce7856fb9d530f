/**
 * The bookshop as `npm start` builds it (createBookshop over DATABASE_URL), with the bench's quiet
 * logger. NODE_ENV, APP_DEBUG, PROFILER, PROFILER_DSN, LOG_LEVEL and JWT_SECRET come from the
 * environment. The harness seeds the database once before starting several of these on it.
 */
import { loadConfig, openDatabase } from 'trellis';
import { createBookshop } from '../../examples/bookshop/src/bookshop.ts';
import { announceUrl } from '../lib/server-process.ts';
import { quietLogger } from './quiet-logger.ts';
import { answerMemory } from './answer-memory.ts';

const config = loadConfig();
const database = openDatabase(config.databaseUrl);
const app = await createBookshop({ config, database, tls: null, logger: quietLogger(config.logLevel, config.debug) });
app.addHook('onClose', () => database.destroy());
answerMemory();
announceUrl(await app.listen({ host: '127.0.0.1', port: 0 }));
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
