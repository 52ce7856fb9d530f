import type { DataCollector } from '../../data-collector.ts';

export interface TimeData {
  /** Epoch ms. */
  readonly startTime: number;
  readonly durationMs: number;
  /** Consecutive lifecycle phases (kernel/lifecycle.md), each from its mark to the next one. */
  readonly phases: readonly { readonly name: string; readonly startMs: number; readonly durationMs: number }[];
  /** Heap in use at start and end and the process RSS, in bytes (null in older profiles and sub-requests). */
  readonly memory: { readonly heapStart: number; readonly heapEnd: number; readonly rss: number } | null;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Total duration and the lifecycle phases as a simple timeline. */
export const timeCollector: DataCollector<TimeData> = {
  name: 'time',
  collect(ctx) {
    const { names, atUs } = ctx.marks;
    const marks = names.map((name, i) => ({ name, atMs: atUs[i]! / 1000 })).sort((a, b) => a.atMs - b.atMs);
    const phases = marks.map((mark, i) => {
      const end = i + 1 < marks.length ? marks[i + 1]!.atMs : Math.max(ctx.durationMs, mark.atMs);
      return { name: mark.name, startMs: round(mark.atMs), durationMs: round(end - mark.atMs) };
    });
    return { startTime: ctx.startTime, durationMs: round(ctx.durationMs), phases, memory: ctx.memory ?? null };
  },
};
