import { format } from 'node:util';
import { pino, type Logger, type DestinationStream } from 'pino';
import { currentRequestScope } from '../kernel/request-scope.ts';
import { channels } from '../observe/channels.ts';
import type { LogRecord } from './log-record.ts';
import { redactSecrets } from './redact-secrets.ts';
import { cutString, MAX_RECORD_CHARS } from './cut-string.ts';

export interface LoggerOptions {
  readonly level: string;
  /** Keep each record with the request it was written for (debug page, profiler). */
  readonly captureRequestRecords: boolean;
  readonly destination?: DestinationStream;
}

/** Headers that never reach a log line in clear, whatever the level. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
];

function toRecord(args: unknown[], level: string, bindings: Record<string, unknown>): LogRecord {
  let context: Record<string, unknown> = {};
  let rest = args;
  const first = args[0];
  if (first !== null && typeof first === 'object' && !(first instanceof Error)) {
    context = { ...(first as Record<string, unknown>) };
    rest = args.slice(1);
  } else if (first instanceof Error) {
    context = { err: { type: first.name, message: first.message } };
    rest = args.slice(1);
    if (rest.length === 0) rest = [first.message];
  }
  // The record's own channel (given with the call) wins over the logger's binding: an error logged
  // with `{ channel: 'request' }` on a request's logger is a "request" record, as Monolog's would be.
  const channel = typeof context.channel === 'string' ? context.channel : typeof bindings.channel === 'string' ? bindings.channel : 'app';
  const { reqId: _reqId, channel: _channel, ...boundContext } = bindings;
  delete context.channel;
  return {
    time: Date.now(),
    level,
    channel,
    message: rest.length > 0 ? cutString(format(...(rest as [unknown, ...unknown[]]))) : '',
    context: redactSecrets({ ...boundContext, ...context }, undefined, 0, MAX_RECORD_CHARS),
  };
}

/**
 * The application logger. In the debug configuration every record is also kept with the request it
 * was written for (through the request scope) and published on `trellis:log`.
 */
export function createLogger(options: LoggerOptions): Logger {
  const capture = options.captureRequestRecords;
  return pino(
    {
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      ...(capture && {
        hooks: {
            logMethod(args, method, level) {
              const scope = currentRequestScope();
              if (scope || channels.log.hasSubscribers) {
                const record = toRecord(args, this.levels.labels[level] ?? String(level), this.bindings());
                scope?.logs.push(record);
                if (channels.log.hasSubscribers) channels.log.publish({ record });
              }
              method.apply(this, args as Parameters<typeof method>);
            },
        },
      }),
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
