import { absoluteUrl } from './build-profile.ts';
import type { ProfileSummary } from './profile.ts';
import type { RequestSnapshot } from './profiled-request.ts';

/**
 * What the request thread knows of a snapshot that the profiler thread would otherwise have to
 * parse it for. They travel beside the snapshots' texts as FACT_COUNT flat entries per snapshot:
 * an array of primitives is the cheapest thing to post.
 */
export interface SnapshotFacts {
  readonly summary: ProfileSummary;
  /** Path and query as received. */
  readonly requestUrl: string;
  /** Whether the captured response headers hold the profiler's two headers. */
  readonly profilerHeaders: boolean;
  /** Whether they hold X-Previous-Debug-Token (an error answer's sub-request). */
  readonly previousTokenHeader: boolean;
  /** Whether collectors on the request thread found secrets (they travel with the snapshot). */
  readonly secretsFound: boolean;
  /**
   * A sub-request sent without the response and exception it shares with its parent, which was
   * sent before it: what an error sub-request shares is most of its text.
   */
  readonly inherits: boolean;
  /** A request with sub-requests, which may inherit from it. */
  readonly hasChildren: boolean;
  /**
   * A request body kept as text (text/plain, a form a parser left unparsed): its secrets are
   * pairs or JSON inside a JSON string, which the text test of may-hold-secret.ts cannot see.
   */
  readonly textBody: boolean;
}

const FACT_COUNT = 10;
const PROFILER_HEADERS = 1;
const SECRETS_FOUND = 2;
const INHERITS = 4;
const HAS_CHILDREN = 8;
const TEXT_BODY = 16;
const PREVIOUS_TOKEN_HEADER = 32;

/** Appends the facts of a snapshot (of what is sent of it: not what it inherits) to a batch's flat list. */
/** `bodyBeside`: the request body, cut on the request thread, travels beside the text (thread-profile-sink.ts). */
export function pushFacts(into: (string | number | null)[], sent: RequestSnapshot, inherits: boolean, bodyBeside = false): void {
  // A sub-request that inherits is sent without its response (profiler-thread-messages.ts, asSent).
  const response = inherits ? null : sent.response;
  let flags = inherits ? INHERITS : 0;
  // Headers kept as their block (wire-headers.ts) are read on the profiler thread, which sets
  // their flags then (`withHeaderFacts`).
  if (response && response.wire === undefined) flags |= headerFlags(response.headers);
  if ((sent.secrets?.length ?? 0) > 0) flags |= SECRETS_FOUND;
  if (sent.children.length > 0) flags |= HAS_CHILDREN;
  if (bodyBeside || (typeof sent.request.body === 'string' && sent.request.body !== '')) flags |= TEXT_BODY;
  // The summary's fields (summaryOf), pushed without an object made for them.
  const r = sent.request;
  into.push(sent.token, sent.parentToken, r.ip, r.method, absoluteUrl(sent), sent.startTime, sent.statusCode, Math.round(sent.durationMs * 1000) / 1000, r.url, flags);
}

function headerFlags(headers: Readonly<Record<string, unknown>>): number {
  let flags = 0;
  if (headers['x-debug-token'] !== undefined && headers['x-debug-token-link'] !== undefined) flags |= PROFILER_HEADERS;
  if (headers['x-previous-debug-token'] !== undefined) flags |= PREVIOUS_TOKEN_HEADER;
  return flags;
}

/**
 * The facts with the flags of the response headers read from their block on the profiler thread
 * (the request thread sent the block unread: see pushFacts).
 */
export function withHeaderFacts(facts: SnapshotFacts, headers: Readonly<Record<string, unknown>>): SnapshotFacts {
  const flags = headerFlags(headers);
  return { ...facts, profilerHeaders: (flags & PROFILER_HEADERS) !== 0, previousTokenHeader: (flags & PREVIOUS_TOKEN_HEADER) !== 0 };
}

/** The facts of the i-th snapshot of a batch. */
export function factsAt(facts: readonly (string | number | null)[], i: number): SnapshotFacts {
  const f = facts.slice(i * FACT_COUNT, (i + 1) * FACT_COUNT) as [string, string | null, string, string, string, number, number, number, string, number];
  return {
    summary: { token: f[0], parent: f[1], ip: f[2], method: f[3], url: f[4], time: f[5], statusCode: f[6], durationMs: f[7] },
    requestUrl: f[8],
    profilerHeaders: (f[9] & PROFILER_HEADERS) !== 0,
    previousTokenHeader: (f[9] & PREVIOUS_TOKEN_HEADER) !== 0,
    secretsFound: (f[9] & SECRETS_FOUND) !== 0,
    inherits: (f[9] & INHERITS) !== 0,
    hasChildren: (f[9] & HAS_CHILDREN) !== 0,
    textBody: (f[9] & TEXT_BODY) !== 0,
  };
}
