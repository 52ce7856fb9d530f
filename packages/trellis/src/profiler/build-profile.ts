import type { DataCollector } from './data-collector.ts';
import type { Profile } from './profile.ts';
import type { ProfileContext } from './profile-context.ts';
import { toIpv4Form } from '../http/ip-matcher.ts';

/** The absolute URL of the request (scheme, host, path, query), as the client addressed it. */
export function absoluteUrl(ctx: ProfileContext): string {
  const r = ctx.request;
  return `${r.protocol}://${r.host || 'localhost'}${r.url}`;
}

/**
 * Runs the collectors and assembles the stored profile. A collector that throws costs only its
 * own panel. The redaction's final pass runs over everything request-derived, last, so a secret
 * found by any collector is removed from all of them.
 */
export async function buildProfile(ctx: ProfileContext, collectors: readonly DataCollector[]): Promise<Profile> {
  const data: Record<string, unknown> = {};
  for (const collector of collectors) {
    try {
      data[collector.name] = await collector.collect(ctx);
    } catch (error) {
      data[collector.name] = { error: `Collector "${collector.name}" failed: ${(error as Error)?.message ?? String(error)}` };
    }
  }
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
