import { withResponseHeaders } from './wire-headers.ts';
import { absoluteFormHost } from '../kernel/request-origin.ts';
import { unpackApi } from './api-record.ts';
import { unpackMarks } from './packed-marks.ts';
import type { DataCollector } from './data-collector.ts';
import type { Profile, ProfileSummary } from './profile.ts';
import type { ProfiledRequest, RequestSnapshot } from './profiled-request.ts';
import { Redaction } from './redact.ts';

/** How profiles are built: the body limit and the secret key fragments (from the configuration). */
export interface BuildOptions {
  readonly maxBodyBytes: number;
  readonly redactKeys: readonly string[];
}

/** The absolute URL of the request (scheme, host, path, query), as the client addressed it. */
export function absoluteUrl(snapshot: RequestSnapshot): string {
  const r = snapshot.request;
  // A target in absolute form (RFC 9112 §3.2.2) is the absolute URL already.
  if (absoluteFormHost(r.url) !== undefined) return r.url;
  return r.host ? `${r.protocol}://${r.host}${r.url}` : r.url;
}

/**
 * The summary of a snapshot's profile, as stored and searched, before redaction: the URL with a
 * secret query value is redacted when the profile is built (`buildProfile`).
 */
export function summaryOf(snapshot: RequestSnapshot): ProfileSummary {
  return {
    token: snapshot.token,
    parent: snapshot.parentToken,
    ip: snapshot.request.ip,
    method: snapshot.request.method,
    url: absoluteUrl(snapshot),
    time: snapshot.startTime,
    statusCode: snapshot.statusCode,
    durationMs: Math.round(snapshot.durationMs * 1000) / 1000,
  };
}

function failed(name: string, error: unknown): { error: string } {
  return { error: `Collector "${name}" failed: ${(error as Error)?.message ?? String(error)}` };
}

/** What collectors are given for a snapshot: it, the body limit, and a fresh redaction. */
export function profiledRequest(whole: RequestSnapshot, options: BuildOptions): ProfiledRequest {
  // A response captured with its header block (on the request thread) is read here.
  const snapshot = withResponseHeaders(whole);
  return { ...snapshot, marks: unpackMarks(snapshot.marks), api: snapshot.api === undefined ? undefined : unpackApi(snapshot.api), maxBodyBytes: options.maxBodyBytes, redaction: new Redaction(options.redactKeys, snapshot.secrets) };
}

/**
 * Runs collectors over a request; each one's data lands under its name in `into`. A collector
 * that throws costs only its own panel. Synchronous when every collector is (the built-in ones
 * are): a promise per profile would be pure overhead.
 */
export function runCollectors(ctx: ProfiledRequest, collectors: readonly DataCollector[], into: Record<string, unknown>): void | Promise<void> {
  for (let i = 0; i < collectors.length; i++) {
    const collector = collectors[i]!;
    let value: unknown;
    try {
      value = collector.collect(ctx);
    } catch (error) {
      value = failed(collector.name, error);
    }
    if (value instanceof Promise) return finishAsync(ctx, collectors, into, i, value);
    into[collector.name] = value;
  }
}

async function finishAsync(ctx: ProfiledRequest, collectors: readonly DataCollector[], into: Record<string, unknown>, from: number, first: Promise<unknown>): Promise<void> {
  for (let i = from; i < collectors.length; i++) {
    const collector = collectors[i]!;
    try {
      into[collector.name] = await (i === from ? first : collector.collect(ctx));
    } catch (error) {
      into[collector.name] = failed(collector.name, error);
    }
  }
}

/**
 * Builds the stored profile of a snapshot: runs the collectors, adds the data of those that ran
 * on the request thread (`snapshot.collected`), and redacts. The redaction's final pass runs over
 * everything request-derived, last, so a secret found by any collector is removed from all.
 */
export function buildProfile(snapshot: RequestSnapshot, collectors: readonly DataCollector[], options: BuildOptions): Profile | Promise<Profile> {
  const ctx = profiledRequest(snapshot, options);
  const data: Record<string, unknown> = {};
  const ran = runCollectors(ctx, collectors, data);
  if (ran instanceof Promise) return ran.then(() => assemble(ctx, data));
  return assemble(ctx, data);
}

function assemble(ctx: ProfiledRequest, data: Record<string, unknown>): Profile {
  for (const name in ctx.collected) data[name] = ctx.collected[name];
  const summary = summaryOf(ctx);
  return {
    ...summary,
    url: ctx.redaction.scrub(ctx.redaction.url(summary.url)),
    children: ctx.children,
    // Stores serialise to JSON, so what is read back is what JSON can carry of a collector's data.
    collectors: ctx.redaction.scrub(data),
  };
}
