import { readdir, readFile } from 'node:fs/promises';

/** CPU time a process's threads have used, in clock ticks (USER_HZ, 100 a second on Linux), by thread name. */
export type ThreadTicks = ReadonlyMap<string, number>;

/** Clock ticks a second: USER_HZ, which Linux fixes at 100 for /proc whatever the kernel's HZ. */
export const TICKS_PER_SECOND = 100;

/**
 * The name and the user + system ticks of one `/proc/<pid>/task/<tid>/stat` line. The name is
 * the second field, in parentheses, and may itself hold spaces and parentheses (proc(5)): the
 * fields after it are read from the last ")". utime and stime are fields 14 and 15.
 */
export function parseTaskStat(line: string): { name: string; ticks: number } | null {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = line.slice(close + 2).split(' ');
  // rest[0] is field 3 (state): utime is field 14, stime field 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return { name: line.slice(open + 1, close), ticks: utime + stime };
}

/**
 * Ticks per thread name of a running process, summed over the threads sharing a name (Node names
 * its threads: MainThread, WorkerThread for each worker, V8Worker for the collector's and
 * compiler's helpers, libuv-worker for the pool). A thread that ended is no longer counted.
 */
export async function threadTicks(pid: number): Promise<ThreadTicks> {
  const ticks = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const parsed = parseTaskStat(await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => ''));
    if (parsed) ticks.set(parsed.name, (ticks.get(parsed.name) ?? 0) + parsed.ticks);
  }
  return ticks;
}

/**
 * User + system ticks of a whole process (`/proc/<pid>/stat`, all its threads), or null when it
 * is gone or unreadable: for a process beside the server whose work a request causes (Redis).
 */
export async function processTicks(pid: number): Promise<number | null> {
  return parseTaskStat(await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''))?.ticks ?? null;
}

/** Microseconds of CPU per request, by thread name, between two readings over `requests` requests. */
export function cpuPerRequest(before: ThreadTicks, after: ThreadTicks, requests: number): Map<string, number> {
  const us = new Map<string, number>();
  for (const [name, ticks] of after) {
    const used = ticks - (before.get(name) ?? 0);
    if (used > 0) us.set(name, (used * 1e6) / TICKS_PER_SECOND / requests);
  }
  return us;
}
