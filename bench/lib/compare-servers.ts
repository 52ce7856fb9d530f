import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadRequest, LoadResult } from './load-generator.ts';
import { ServerProcess, type ServerSpec } from './server-process.ts';
import { toFixture } from './response-fixture.ts';
import { spread } from './stats.ts';
import type { ScenarioContext, ScenarioResult, ServerFigures } from '../scenarios/scenario.ts';

export interface Comparison {
  readonly request: LoadRequest;
  readonly expectStatus: number;
  /** The server every ratio is taken against. */
  readonly baseline: string;
  /** The server whose response the raw ceiling (`servers/raw-node.ts`) replays byte for byte. */
  readonly bytesFrom: string;
  readonly servers: readonly ServerSpec[];
  /** Extra ratios between two servers of the same round: [metric name, server, against]. */
  readonly pairs?: ReadonlyArray<readonly [string, string, string]>;
}

export const RAW_SCRIPT = 'bench/servers/raw-node.ts';

interface Probe {
  status: number;
  body: Uint8Array;
  headers: Headers;
}

async function probe(url: string, request: LoadRequest): Promise<Probe> {
  const res = await fetch(new URL(request.path, url), { method: request.method, headers: request.headers, body: request.body });
  return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/**
 * Runs one request against several servers, each in its own process, interleaved: every round
 * loads each server in turn, alternating the order (A B C, then C B A) so slow drift of the
 * machine falls on all servers alike; ratios are taken within a round, then summarised.
 */
export async function compareServers(ctx: ScenarioContext, c: Comparison): Promise<ScenarioResult> {
  const { options, generator, log } = ctx;
  const notes: string[] = [];
  const started = new Map<string, ServerProcess>();
  try {
    // The raw ceiling replays bytes captured from another server, so it starts last.
    for (const spec of c.servers.filter((s) => s.script !== RAW_SCRIPT)) {
      started.set(spec.name, await ServerProcess.start(spec, ctx.root));
    }
    const source = started.get(c.bytesFrom);
    if (!source) throw new Error(`bytesFrom server "${c.bytesFrom}" is not among the servers`);
    const reference = await probe(source.url, c.request);
    if (reference.status !== c.expectStatus) {
      throw new Error(`${c.bytesFrom} answered ${c.request.method} ${c.request.path} with ${reference.status}, expected ${c.expectStatus}: ${Buffer.from(reference.body).toString().slice(0, 300)}`);
    }
    const fixtureFile = join(ctx.workDir, `fixture-${process.pid}-${Date.now()}.json`);
    await writeFile(fixtureFile, JSON.stringify([toFixture(c.request.method, c.request.path, reference.status, reference.headers, reference.body)]));
    for (const spec of c.servers.filter((s) => s.script === RAW_SCRIPT)) {
      started.set(spec.name, await ServerProcess.start({ ...spec, env: { ...spec.env, BENCH_FIXTURES: fixtureFile } }, ctx.root));
    }

    // Like with like: every server must answer the same status, and says whether its bytes match.
    for (const spec of c.servers) {
      const p = await probe(started.get(spec.name)!.url, c.request);
      if (p.status !== c.expectStatus) throw new Error(`${spec.name} answered ${p.status}, expected ${c.expectStatus}`);
      if (spec.name !== c.bytesFrom && !sameBytes(p.body, reference.body)) {
        notes.push(`${spec.name}: body differs from ${c.bytesFrom} (${p.body.length} vs ${reference.body.length} bytes)`);
      }
    }

    const order = c.servers.map((s) => s.name);
    for (const name of order) {
      log(`  warm-up ${name}`);
      await generator.run(started.get(name)!.url, c.request, { durationSeconds: options.warmupSeconds, connections: options.connections });
    }
    const results = new Map<string, LoadResult[]>(order.map((n) => [n, []]));
    for (let round = 0; round < options.rounds; round++) {
      const sequence = round % 2 === 0 ? order : [...order].reverse();
      for (const name of sequence) {
        const r = await generator.run(started.get(name)!.url, c.request, { durationSeconds: options.durationSeconds, connections: options.connections });
        if (r.errors > 0) notes.push(`${name}, round ${round + 1}: ${r.errors} socket errors or timeouts`);
        results.get(name)!.push(r);
        log(`  round ${round + 1}/${options.rounds} ${name.padEnd(28)} ${Math.round(r.requestsPerSecond)} req/s`);
      }
    }

    const base = results.get(c.baseline)!;
    const ratiosOf = (name: string, against: readonly LoadResult[]) => results.get(name)!.map((r, i) => r.requestsPerSecond / against[i]!.requestsPerSecond);
    const servers: ServerFigures[] = c.servers.map((spec) => {
      const rounds = results.get(spec.name)!;
      return {
        name: spec.name,
        description: spec.description,
        rounds,
        rps: spread(rounds.map((r) => r.requestsPerSecond)),
        p50Ms: spread(rounds.map((r) => r.p50Ms)),
        p99Ms: spread(rounds.map((r) => r.p99Ms)),
        ratio: spread(ratiosOf(spec.name, base)),
      };
    });
    const metrics: Record<string, number> = {};
    for (const s of servers) {
      metrics[`rps:${s.name}`] = s.rps.median;
      metrics[`ratio:${s.name}`] = s.ratio.median;
    }
    for (const [metric, name, against] of c.pairs ?? []) {
      const r = spread(ratiosOf(name, results.get(against)!));
      metrics[metric] = r.median;
      notes.push(`${metric}: ${name} / ${against} in the same round = ${r.median.toFixed(3)} (range ${r.min.toFixed(3)}–${r.max.toFixed(3)})`);
    }
    return { kind: 'load', baseline: c.baseline, servers, metrics, notes };
  } finally {
    await Promise.all([...started.values()].map((s) => s.stop()));
  }
}
