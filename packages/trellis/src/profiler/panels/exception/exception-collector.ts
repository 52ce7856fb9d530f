import type { DataCollector } from '../../data-collector.ts';
import { withFrames, type FlatException } from '../../../errors/flatten-error.ts';

export interface ExceptionData {
  /** The last error of the request, outermost first, with traces; empty when none was thrown. */
  readonly chain: readonly FlatException[];
}

/** The exception chain and stack traces, as the debug error page shows them. */
export const exceptionCollector: DataCollector<ExceptionData> = {
  name: 'exception',
  collect(ctx) {
    return { chain: withFrames(ctx.exception) };
  },
};
