/**
 * Every diagnostics_channel Trellis publishes, with its payload type, in one place.
 *
 * The kernel and the layers publish; observers (the profiler, an APM agent, a test) subscribe.
 * Publishers always guard with `channel.hasSubscribers`, so with no subscriber an event costs one
 * property read. Payloads are plain objects created only when someone listens.
 */
import diagnostics from 'node:diagnostics_channel';
import type { FastifyRequest } from 'fastify';
import type { LogRecord } from '../logging/log-record.ts';
import type { SubRequest } from '../kernel/sub-request.ts';

/** A lifecycle phase boundary (see kernel/lifecycle.md for the phase names). */
export interface PhaseEvent {
  readonly request: FastifyRequest;
  readonly phase: string;
  /** `performance.now()` at the moment the phase begins. */
  readonly at: number;
}

export interface RouteEvent {
  readonly request: FastifyRequest;
  /** The matched route pattern, e.g. `/books/:id`, or null when nothing matched. */
  readonly route: string | null;
  readonly params: Readonly<Record<string, string>>;
}

export interface ErrorEvent {
  readonly request: FastifyRequest;
  readonly error: unknown;
  readonly status: number;
}

export interface SubRequestEvent {
  readonly parent: FastifyRequest;
  readonly subRequest: SubRequest;
}

export interface LogEvent {
  readonly record: LogRecord;
}

/** One stage of a resource operation (provide, security, deserialize, validate, process, serialize…). */
export interface ResourceStageEvent {
  readonly request: FastifyRequest | null;
  readonly resource: string;
  readonly operation: string;
  readonly stage: string;
  readonly durationMs: number;
  readonly outcome: 'ok' | 'error' | 'skipped';
  readonly detail?: Readonly<Record<string, unknown>>;
}

/**
 * All the stages of one run of the pipeline at once, when it ends (the profiler's channel: one
 * event per request instead of one per stage). Times are `performance.now()` in microseconds.
 */
export interface ResourceStagesEvent {
  readonly request: FastifyRequest | null;
  readonly resource: string;
  readonly operation: string;
  readonly names: readonly string[];
  readonly startUs: readonly number[];
  readonly durationUs: readonly number[];
  readonly outcomes: readonly ResourceStageEvent['outcome'][];
  /** Given with a stage's end (the provide stage: format, provider, processor), merged. */
  readonly detail: Readonly<Record<string, unknown>>;
}

export interface DbQueryEvent {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly durationMs: number;
  /** `performance.now()` when the query started; absent from events an app published itself. */
  readonly startedAt?: number;
  readonly error?: string;
  /** Rows returned, or affected by a write, when the driver says (node:sqlite does; pg through Kysely's log does not). */
  readonly rows?: number;
  /**
   * Run on a connection the app did not open with `openDatabase` (its own `node:sqlite` database
   * or `pg` client): the profiler's EXPLAIN, which runs on the app's database, is not offered for it.
   */
  readonly foreign?: true;
}

export interface AuthenticationEvent {
  readonly request: FastifyRequest | null;
  readonly authenticator: string;
  readonly outcome: 'success' | 'failure' | 'skipped';
  readonly user: string | null;
  readonly roles: readonly string[];
  /** The roles the user holds through the role hierarchy too (success only). */
  readonly reachableRoles?: readonly string[];
  readonly reason?: string;
}

export interface VoteEvent {
  readonly request: FastifyRequest | null;
  readonly voter: string;
  readonly attribute: string;
  readonly subject: unknown;
  readonly vote: 'grant' | 'deny' | 'abstain';
  /** How the manager combines votes (Symfony's decision strategies). */
  readonly strategy?: 'affirmative' | 'consensus' | 'unanimous';
}

export interface AccessDecisionEvent {
  readonly request: FastifyRequest | null;
  readonly attribute: string;
  readonly granted: boolean;
  readonly stage: 'path' | 'security' | 'post_denormalize';
  readonly message?: string;
  /** A rule given as a function: its source, cut (what Symfony shows of an expression). */
  readonly expression?: string;
  /** For a path rule, the path pattern that matched. */
  readonly path?: string;
  /** For securityPostDenormalize: the object as deserialised and as it was before (live objects: copy before keeping). */
  readonly object?: unknown;
  readonly previousObject?: unknown;
}

export interface NegotiationEvent {
  readonly request: FastifyRequest;
  readonly accept: string | undefined;
  readonly format: string | null;
  readonly mediaType: string | null;
  /** The format extension of the path that decided it (`/books/1.jsonld`), or null: the Accept header did. */
  readonly extension?: string | null;
}

export const channels = {
  phase: diagnostics.channel('trellis:phase'),
  route: diagnostics.channel('trellis:route'),
  error: diagnostics.channel('trellis:error'),
  subRequestStart: diagnostics.channel('trellis:sub-request:start'),
  subRequestEnd: diagnostics.channel('trellis:sub-request:end'),
  log: diagnostics.channel('trellis:log'),
  negotiate: diagnostics.channel('trellis:negotiate'),
  resourceStage: diagnostics.channel('trellis:resource:stage'),
  resourceStages: diagnostics.channel('trellis:resource:stages'),
  dbQuery: diagnostics.channel('trellis:db:query'),
  authentication: diagnostics.channel('trellis:security:authentication'),
  vote: diagnostics.channel('trellis:security:vote'),
  accessDecision: diagnostics.channel('trellis:security:decision'),
} as const;

/** Payload type of each channel, for typed subscribers. */
export interface ChannelPayloads {
  phase: PhaseEvent;
  route: RouteEvent;
  error: ErrorEvent;
  subRequestStart: SubRequestEvent;
  subRequestEnd: SubRequestEvent;
  log: LogEvent;
  negotiate: NegotiationEvent;
  resourceStage: ResourceStageEvent;
  resourceStages: ResourceStagesEvent;
  dbQuery: DbQueryEvent;
  authentication: AuthenticationEvent;
  vote: VoteEvent;
  accessDecision: AccessDecisionEvent;
}

/** Publishes only when someone listens; `make` builds the payload lazily. */
export function publish<K extends keyof ChannelPayloads>(name: K, make: () => ChannelPayloads[K]): void {
  const ch = channels[name];
  if (ch.hasSubscribers) ch.publish(make());
}

/** Typed subscribe; returns the function that unsubscribes. */
export function subscribe<K extends keyof ChannelPayloads>(name: K, onMessage: (payload: ChannelPayloads[K]) => void): () => void {
  const listener = (message: unknown) => onMessage(message as ChannelPayloads[K]);
  channels[name].subscribe(listener);
  return () => {
    channels[name].unsubscribe(listener);
  };
}
