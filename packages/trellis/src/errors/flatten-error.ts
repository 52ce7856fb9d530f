import { HttpError } from '../kernel/http-error.ts';
import { parseStack, type StackFrame } from './stack-trace.ts';

/** One exception of a chain, as plain JSON-safe data (kept by the profiler, shown by pages). */
export interface FlatException {
  readonly class: string;
  readonly message: string;
  readonly status: number | null;
  readonly code: string | null;
  readonly frames: readonly StackFrame[];
}

function className(error: unknown): string {
  if (error instanceof HttpError) return error.className;
  if (error instanceof Error) return error.constructor?.name || error.name || 'Error';
  return typeof error;
}

/** Drops the leading frames of HttpError's own constructor and factory: the throw site comes first. */
function withoutFactoryFrames(frames: StackFrame[]): StackFrame[] {
  let i = 0;
  while (i < frames.length && /kernel\/http-error\.[jt]s$/.test(frames[i]!.file)) i++;
  return i < frames.length ? frames.slice(i) : frames;
}

/** One exception of a chain before its stack is parsed: plain data, cheap to take and to copy. */
export interface ChainedException extends Omit<FlatException, 'frames'> {
  /** The V8 stack text, or null for a thrown non-Error. */
  readonly stack: string | null;
}

/** The error and its causes, outermost first, at most `max` deep (cycles cannot loop). */
export function errorChain(error: unknown, max = 10): ChainedException[] {
  const chain: ChainedException[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current) && chain.length < max) {
    seen.add(current);
    const err = current instanceof Error ? current : null;
    const code = (err as { code?: unknown } | null)?.code;
    chain.push({
      class: className(current),
      message: err ? err.message : String(current),
      status: current instanceof HttpError ? current.status : null,
      code: current instanceof HttpError ? current.code : typeof code === 'string' ? code : null,
      stack: err?.stack ?? null,
    });
    current = err?.cause;
  }
  return chain;
}

/** A chain with its stacks parsed into frames with source excerpts (the costly part). */
export function withFrames(chain: readonly ChainedException[]): FlatException[] {
  return chain.map(({ stack, ...rest }) => ({ ...rest, frames: stack === null ? [] : withoutFactoryFrames(parseStack(stack, rest.message)) }));
}

/** The error and its causes, outermost first, with stack frames and source excerpts. */
export function flattenError(error: unknown, max = 10): FlatException[] {
  return withFrames(errorChain(error, max));
}
