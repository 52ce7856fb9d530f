import { pino } from 'pino';
import { createLogger } from 'trellis';

/**
 * The Trellis logger writing to /dev/null: the records are still built and serialised (that cost
 * is part of the figure), but no terminal or pipe throttles the server.
 */
export function quietLogger(level: string, debug: boolean) {
  return createLogger({ level, captureRequestRecords: debug, destination: pino.destination({ dest: '/dev/null', sync: false }) });
}
