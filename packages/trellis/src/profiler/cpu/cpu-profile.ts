/**
 * A V8 CPU profile as `Profiler.stop` returns it (Chrome DevTools Protocol, Profiler.Profile), the
 * format of a `.cpuprofile` file that Chrome DevTools and VS Code load. It holds function names and
 * script URLs with line numbers: no argument, variable or heap value.
 */
export interface CpuProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly scriptId: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
  readonly hitCount?: number;
  readonly children?: readonly number[];
  readonly positionTicks?: readonly { readonly line: number; readonly ticks: number }[];
}

export interface CpuProfile {
  readonly nodes: readonly CpuProfileNode[];
  /** Microseconds (V8's monotonic clock). */
  readonly startTime: number;
  readonly endTime: number;
  /** The node on top of the stack at each sample. */
  readonly samples: readonly number[];
  /** Microseconds from the previous sample (the first: from startTime). */
  readonly timeDeltas: readonly number[];
}

/** A request's CPU profile as the profiler keeps it: capped (see `capCpuProfile`), and how. */
export interface CpuSample {
  readonly profile: CpuProfile;
  /** The sampling interval asked of V8, in µs. */
  readonly intervalUs: number;
  /** Consecutive samples merged into one to fit the sample cap (1: none). */
  readonly samplesMerged: number;
  /** Sampled functions folded into their caller to fit the node cap (0: none). */
  readonly nodesFolded: number;
}

export interface CpuProfileLimits {
  readonly maxSamples: number;
  readonly maxNodes: number;
  /** The profile's JSON at most this long: the node cap is halved until it is (down to 16), then the sample cap (down to 100). */
  readonly maxBytes: number;
}

/**
 * Enough for a second of samples at 100 µs and a call tree a person can read; about 300 kB at
 * most, so a long request cannot blow the profile store (a profile is ~2 kB).
 */
export const CPU_PROFILE_LIMITS: CpuProfileLimits = { maxSamples: 10_000, maxNodes: 1_500, maxBytes: 300 * 1024 };
const MAX_STRING = 300;

/**
 * A profile cut to the limits. Samples past `maxSamples` are merged k to 1 (each kept sample
 * stands for the k it leads, its delta their sum: systematic sampling keeps the shape over the
 * whole request). Nodes never sampled, nor any of their descendants, are dropped; past
 * `maxNodes`, the least sampled subtrees are folded into their callers (a node's total is never
 * more than its parent's, so what is kept is a tree). Line ticks are kept only when nothing was
 * merged or folded (they would no longer add up).
 */
export function capCpuProfile(raw: CpuProfile, intervalUs: number, limits: CpuProfileLimits = CPU_PROFILE_LIMITS): CpuSample {
  let { maxSamples, maxNodes } = limits;
  for (;;) {
    const capped = sampledDown(raw, intervalUs, maxSamples, maxNodes);
    if (JSON.stringify(capped.profile).length <= limits.maxBytes || (maxNodes <= 16 && maxSamples <= 100)) return capped;
    // Over the byte cap: fewer nodes first (a deep tree of long URLs), then fewer samples.
    if (maxNodes > 16) maxNodes = Math.floor(maxNodes / 2);
    else maxSamples = Math.max(100, Math.floor(maxSamples / 2));
  }
}

function sampledDown(raw: CpuProfile, intervalUs: number, maxSamples: number, maxNodes: number): CpuSample {
  const k = Math.max(1, Math.ceil(raw.samples.length / maxSamples));
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (let i = 0; i < raw.samples.length; i += k) {
    samples.push(raw.samples[i]!);
    let delta = 0;
    for (let j = i; j < Math.min(i + k, raw.samples.length); j++) delta += raw.timeDeltas[j] ?? 0;
    timeDeltas.push(delta);
  }
  const byId = new Map(raw.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of raw.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  for (const s of samples) self.set(s, (self.get(s) ?? 0) + 1);
  const total = new Map<number, number>();
  const root = raw.nodes[0];
  const sum = (id: number): number => {
    let t = self.get(id) ?? 0;
    for (const c of byId.get(id)?.children ?? []) t += sum(c);
    total.set(id, t);
    return t;
  };
  // Recursive: V8 records at most 255 frames of a stack per sample (TickSample::kMaxFramesCount).
  if (root) sum(root.id);
  const sampled = raw.nodes.filter((n) => (total.get(n.id) ?? 0) > 0 || n === root).length;
  const profile = cut(raw, samples, timeDeltas, total, parent, maxNodes, k);
  return { profile, intervalUs, samplesMerged: k, nodesFolded: Math.max(0, sampled - profile.nodes.length) };
}

function cut(raw: CpuProfile, samples: number[], timeDeltas: number[], total: Map<number, number>, parent: Map<number, number>, maxNodes: number, merged: number): CpuProfile {
  const root = raw.nodes[0];
  const totals = raw.nodes.map((n) => total.get(n.id) ?? 0).filter((t) => t > 0).sort((a, b) => b - a);
  // The smallest total kept: ties at the cut are dropped together, never half of them.
  let threshold = 1;
  if (totals.length > maxNodes) {
    const at = totals[maxNodes - 1]!;
    threshold = totals.filter((t) => t >= at).length <= maxNodes ? at : at + 1;
  }
  const kept = new Set(raw.nodes.filter((n) => n === root || (total.get(n.id) ?? 0) >= threshold).map((n) => n.id));
  const keptAncestor = new Map<number, number>();
  const mapped = (id: number): number => {
    let at = id;
    while (!kept.has(at) && parent.has(at)) at = parent.get(at)!;
    keptAncestor.set(id, at);
    return at;
  };
  const newSamples = samples.map((s) => keptAncestor.get(s) ?? mapped(s));
  const hits = new Map<number, number>();
  for (const s of newSamples) hits.set(s, (hits.get(s) ?? 0) + 1);
  const folded = kept.size < raw.nodes.filter((n) => (total.get(n.id) ?? 0) > 0 || n === root).length;
  const nodes: CpuProfileNode[] = raw.nodes
    .filter((n) => kept.has(n.id))
    .map((n) => {
      const children = (n.children ?? []).filter((c) => kept.has(c));
      const { functionName, scriptId, url, lineNumber, columnNumber } = n.callFrame;
      return {
        id: n.id,
        callFrame: { functionName: functionName.slice(0, MAX_STRING), scriptId, url: url.slice(0, MAX_STRING), lineNumber, columnNumber },
        hitCount: hits.get(n.id) ?? 0,
        ...(children.length > 0 ? { children } : {}),
        ...(merged === 1 && !folded && n.positionTicks ? { positionTicks: n.positionTicks } : {}),
      };
    });
  return { nodes, startTime: raw.startTime, endTime: raw.endTime, samples: newSamples, timeDeltas };
}
