import { html, type SafeHtml } from '../../../html/html.ts';
import { defineProfilerPanel, type ProfilerPanel } from '../../define-profiler-panel.ts';
import type { CpuSample } from '../../cpu/cpu-profile.ts';
import { CPU_PROFILE_HEADER } from '../../cpu/cpu-sampler.ts';
import { formatMs } from '../../ui/format-duration.ts';
import { dataOf } from '../../ui/panels/panel.ts';
import { cpuCollector } from './cpu-collector.ts';
import { cpuTree, frameKind, frameLocation, frameName, sampledUs, type CpuTreeNode } from './cpu-tree.ts';
import { flameGraph } from './flame-graph.ts';

const TOP = 25;

interface FunctionTime {
  readonly name: string;
  readonly location: string;
  readonly kind: string;
  selfUs: number;
}

/** Self time summed per function (name and place), most first. */
function topFunctions(root: CpuTreeNode): FunctionTime[] {
  const byFunction = new Map<string, FunctionTime>();
  const visit = (node: CpuTreeNode) => {
    const location = frameLocation(node);
    const key = `${node.functionName}\n${location}`;
    const entry = byFunction.get(key) ?? { name: frameName(node), location, kind: frameKind(node), selfUs: 0 };
    entry.selfUs += node.selfUs;
    byFunction.set(key, entry);
    node.children.forEach(visit);
  };
  visit(root);
  return [...byFunction.values()].filter((f) => f.selfUs > 0).sort((a, b) => b.selfUs - a.selfUs).slice(0, TOP);
}

const defined = defineProfilerPanel<CpuSample>({
  id: 'cpu',
  label: 'CPU profile',
  collect: (request) => cpuCollector.collect(request) as CpuSample,
  badge: (data) => ({ text: formatMs(sampledUs(data.profile) / 1000) }),
  render(data, profile) {
    const root = cpuTree(data.profile);
    if (!root) return html`<h2>CPU profile</h2><p class="pf-empty">The CPU profile holds no samples.</p>`;
    const total = Math.max(root.totalUs, 1);
    const top = topFunctions(root);
    return html`<h2>CPU profile</h2>
<div class="pf-metrics"><div class="pf-metric"><div class="value">${formatMs(root.totalUs / 1000)}</div><div class="label">Sampled</div></div>
<div class="pf-metric"><div class="value">${data.profile.samples.length}</div><div class="label">Samples</div></div>
<div class="pf-metric"><div class="value">${data.intervalUs} µs</div><div class="label">Interval</div></div></div>
<p><a class="pf-download" href="/_profiler/${profile.token}.cpuprofile" download>Download the .cpuprofile</a> <span class="pf-note">(Chrome DevTools: Performance, Load profile; or VS Code)</span></p>
${data.samplesMerged > 1 || data.nodesFolded > 0 ? html`<p class="pf-note">Capped to fit the profile store:${data.samplesMerged > 1 ? ` every ${data.samplesMerged} consecutive samples kept as one;` : ''}${data.nodesFolded > 0 ? ` ${data.nodesFolded} rarely sampled functions folded into their callers;` : ''} line ticks dropped.</p>` : ''}
<p class="pf-note">The V8 profiler samples the whole thread: other requests served at the same time appear too. Starting it takes time of its own (most the first time, when V8 lists every compiled function), counted in the request's duration but not sampled.</p>
<h3>Flame graph</h3>
<div class="pf-flame-legend"><span class="app">app</span> <span class="trellis">Trellis</span> <span class="dependency">dependency</span> <span class="node">Node.js</span> <span class="vm">V8 (program, GC, idle)</span></div>
${flameGraph(root)}
<h3>Top functions by self time</h3>
<table class="pf-table"><thead><tr><th>Function</th><th>Where</th><th>Self</th><th>%</th></tr></thead>
<tbody>${top.map((f): SafeHtml => html`<tr class="${f.kind}"><td class="mono">${f.name}</td><td class="mono">${f.location}</td><td>${formatMs(f.selfUs / 1000)}</td><td>${((f.selfUs / total) * 100).toFixed(1)}</td></tr>`)}</tbody></table>`;
  },
});

/**
 * The CPU panel (issue 17, item 8): the flame graph and top functions of a request sent with
 * `X-Trellis-Profile-CPU: 1` by a client the profiler allows; for any other, how to ask for one.
 */
export const cpuPanel: ProfilerPanel = {
  ...defined,
  render(profile, ctx) {
    if (dataOf<CpuSample>(profile, 'cpu') !== null) return defined.render(profile, ctx);
    return html`<h2>CPU profile</h2>
<p class="pf-empty">This request was not CPU-sampled. Send it again with the header <code>X-Trellis-Profile-CPU: 1</code> from a client that may open the profiler (loopback or <code>PROFILER_ALLOW</code>); one request at a time is sampled.</p>
<pre class="pf-body">curl -H '${CPU_PROFILE_HEADER}: 1' …</pre>`;
  },
};
