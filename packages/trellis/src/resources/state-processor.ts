import type { Operation } from './operation.ts';
import type { Item, OperationContext } from './state-provider.ts';

/**
 * Writes state for an operation. Contract: POST creates and resolves the created item (with its
 * identifier); PUT/PATCH persist `data` over the item identified by `context.params.id` and
 * resolve it as stored; DELETE removes it and resolves null. Relations arrive as `Ref`s.
 * Throw `HttpError` for conflicts (409) rather than letting a driver error through.
 */
export interface StateProcessor<I = Item, O = Item | null> {
  process(data: I, operation: Operation, context: OperationContext): Promise<O>;
}

export type ProcessorFunction<I = Item, O = Item | null> = (data: I, operation: Operation, context: OperationContext) => Promise<O>;

export function toProcessor(p: StateProcessor | ProcessorFunction): StateProcessor {
  return typeof p === 'function' ? { process: p } : p;
}
