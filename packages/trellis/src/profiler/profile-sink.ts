import type { RequestSnapshot } from './profiled-request.ts';

/**
 * Where the recorder hands finished requests, to be built into profiles (collectors, redaction)
 * and stored, off the response path. Contract (checked by `profile-sink.contract.ts` against
 * every implementation):
 * - `send` returns at once: no building, serialising or I/O on the caller's stack beyond handing
 *   the snapshots on, and it never throws. Snapshots are stored in the order sent, so a parent is
 *   stored before its sub-requests.
 * - `settled()` resolves once every snapshot sent before the call is stored, or has failed and
 *   been logged.
 * - A failing store is logged, never surfaced to the sender.
 * - `close()` finishes what was sent, then releases what the sink opened itself.
 * - `dropped` counts every snapshot sent that will never be stored: refused because the sink is
 *   too far behind (its backlog is bounded), or lost because the store failed. It only grows.
 */
export interface ProfileSink {
  send(snapshots: readonly RequestSnapshot[]): void;
  /** Requests sent but not recorded since the sink opened (see the contract). */
  readonly dropped: number;
  settled(): Promise<void>;
  close(): Promise<void>;
}
