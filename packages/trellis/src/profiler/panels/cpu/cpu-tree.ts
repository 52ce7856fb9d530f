import type { CpuProfile } from '../../cpu/cpu-profile.ts';

/** A node of the call tree with its times in µs: its own (self) and with its callees (total). */
export interface CpuTreeNode {
  readonly functionName: string;
  readonly url: string;
  /** 1-based, as editors count (the profile's are 0-based); 0 when unknown. */
  readonly line: number;
  readonly selfUs: number;
  totalUs: number;
  readonly children: CpuTreeNode[];
}

/**
 * The call tree of a profile with time per node, as Chrome DevTools counts it: each sample lasts
 * until the next one (the last until endTime).
 */
export function cpuTree(profile: CpuProfile): CpuTreeNode | null {
  const root = profile.nodes[0];
  if (!root) return null;
  const self = new Map<number, number>();
  let at = profile.startTime;
  const stamps = profile.timeDeltas.map((d) => (at += d));
  profile.samples.forEach((id, i) => {
    const end = i + 1 < stamps.length ? stamps[i + 1]! : Math.max(profile.endTime, stamps[i]!);
    self.set(id, (self.get(id) ?? 0) + Math.max(0, end - stamps[i]!));
  });
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const seen = new Set<number>();
  const build = (id: number): CpuTreeNode | null => {
    const n = byId.get(id);
    // A node reached twice (a malformed file) is shown once.
    if (!n || seen.has(id)) return null;
    seen.add(id);
    const children = (n.children ?? []).map(build).filter((c): c is CpuTreeNode => c !== null);
    const selfUs = self.get(id) ?? 0;
    return {
      functionName: n.callFrame.functionName,
      url: n.callFrame.url,
      line: n.callFrame.lineNumber >= 0 ? n.callFrame.lineNumber + 1 : 0,
      selfUs,
      totalUs: selfUs + children.reduce((sum, c) => sum + c.totalUs, 0),
      children: children.sort((a, b) => b.totalUs - a.totalUs),
    };
  };
  return build(root.id);
}

/**
 * The time the samples cover, in µs: from the first sample to the end. Before it is the time
 * V8 took to start profiling (listing every compiled function, slow the first time), which the
 * request's duration includes.
 */
export function sampledUs(profile: CpuProfile): number {
  return profile.samples.length === 0 ? 0 : Math.max(0, profile.endTime - profile.startTime - (profile.timeDeltas[0] ?? 0));
}

/** A frame's name as DevTools shows it: an anonymous function is "(anonymous)". */
export function frameName(node: { readonly functionName: string }): string {
  return node.functionName === '' ? '(anonymous)' : node.functionName;
}

/** Where a frame is, for reading: its path relative to the working directory, and line. */
export function frameLocation(node: { readonly url: string; readonly line: number }): string {
  if (node.url === '') return '';
  const cwd = `file://${process.cwd()}/`;
  const path = node.url.startsWith(cwd) ? node.url.slice(cwd.length) : node.url;
  return node.line > 0 ? `${path}:${node.line}` : path;
}

/** Whose code a frame is (its colour): the app's, a dependency's, Trellis's, Node's, or V8's own. */
export function frameKind(node: { readonly functionName: string; readonly url: string }): 'app' | 'dependency' | 'trellis' | 'node' | 'vm' {
  if (node.url === '') return /^\(.*\)$/.test(node.functionName) ? 'vm' : 'node';
  if (node.url.startsWith('node:')) return 'node';
  if (node.url.includes('/node_modules/')) return 'dependency';
  if (/\/packages\/trellis\/(src|dist)\//.test(node.url)) return 'trellis';
  return 'app';
}
