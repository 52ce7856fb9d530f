import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the calling thread's CPU priority (raises its nice value) where one thread's can be set
 * apart from its process's: on Linux, where /proc/thread-self names the thread's id, which
 * setpriority(2) accepts. Elsewhere, or when refused, nothing changes. Returns whether it did.
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
