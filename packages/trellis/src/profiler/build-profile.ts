import type { DataCollector } from './data-collector.ts';
import type { Profile } from './profile.ts';
import type { ProfileContext } from './profile-context.ts';
import { toIpv4Form } from '../http/ip-matcher.ts';

/** The absolute URL of the request (scheme, host, path, query), as the client addressed it. */
export function absoluteUrl(ctx: ProfileContext): string {
  const r = ctx.request;
  return `${r.protocol}://${r.host || 'localhost'}${r.url}`;
}

function failed(name: string, error: unknown): { error: string } {
  return { error: `Collector "${name}" failed: ${(error as Error)?.message ?? String(error)}` };
}

/**
 * Runs the collectors and assembles the stored profile. A collector that throws costs only its
 * own panel. The redaction's final pass runs over everything request-derived, last, so a secret
 * found by any collector is removed from all of them. Synchronous when every collector is (the
 * default ones are): a promise per profile would be pure overhead.
 */
export function buildProfile(ctx: ProfileContext, collectors: readonly DataCollector[]): Profile | Promise<Profile> {
  const data: Record<string, unknown> = {};
  for (let i = 0; i < collectors.length; i++) {
    const collector = collectors[i]!;
    let value: unknown;
    try {
      value = collector.collect(ctx);
    } catch (error) {
      value = failed(collector.name, error);
    }
    if (value instanceof Promise) return finishAsync(ctx, collectors, data, i, value);
    data[collector.name] = value;
  }
  return assemble(ctx, data);
}

async function finishAsync(ctx: ProfileContext, collectors: readonly DataCollector[], data: Record<string, unknown>, from: number, first: Promise<unknown>): Promise<Profile> {
  for (let i = from; i < collectors.length; i++) {
    const collector = collectors[i]!;
    try {
      data[collector.name] = await (i === from ? first : collector.collect(ctx));
    } catch (error) {
      data[collector.name] = failed(collector.name, error);
    }
  }
  return assemble(ctx, data);
}

function assemble(ctx: ProfileContext, data: Record<string, unknown>): Profile {
  const url = ctx.redaction.url(absoluteUrl(ctx));
  return {
    token: ctx.token,
    parent: ctx.parentToken,
    // A request the guard rejected has no resolved client address: the socket peer stands in.
    ip: ctx.request.clientIp || toIpv4Form(ctx.request.socket?.remoteAddress ?? ''),
    method: ctx.request.method,
    url: ctx.redaction.scrub(url),
    time: ctx.startTime,
    statusCode: ctx.statusCode,
    durationMs: Math.round(ctx.durationMs * 1000) / 1000,
    children: ctx.children.map((c) => c.token),
    // Stores serialise to JSON, so what is read back is what JSON can carry of a collector's data.
    collectors: ctx.redaction.scrub(data),
  };
}
