import { withCutBodyText } from './cut-body-text.ts';
import type { RequestSnapshot } from './profiled-request.ts';
import type { ProfileSink } from './profile-sink.ts';
import { ProfileWriter, type ProfileWriterOptions, type WriterLog } from './profile-writer.ts';
import type { ProfileStorage } from './storage/profile-storage.ts';
import type { TokenIssuer } from './token.ts';

/**
 * Builds and stores profiles on this thread, in time slices on later turns of the event loop
 * (profile-writer.ts). For a store that lives in this process only (`PROFILER_DSN=memory:`) or
 * one handed to the profiler as an object; stores named by a DSN go to the profiler thread
 * (thread-profile-sink.ts), which keeps this work off the request thread.
 */
export class InProcessProfileSink implements ProfileSink {
  readonly #writer: ProfileWriter;

  constructor(storage: ProfileStorage, log: WriterLog, issuer: TokenIssuer, options: ProfileWriterOptions) {
    this.#writer = new ProfileWriter(storage, log, issuer, options);
  }

  send(snapshots: readonly RequestSnapshot[]): void {
    // Built here, where a cut body is still bytes: collectors see its text, as on the thread.
    for (const snapshot of snapshots) this.#writer.enqueue(() => this.#writer.store(withCutBodyText(snapshot)));
  }

  get dropped(): number {
    return this.#writer.dropped;
  }

  settled(): Promise<void> {
    return this.#writer.idle();
  }

  close(): Promise<void> {
    return this.#writer.idle();
  }
}
