import { html, type SafeHtml } from '../html/html.ts';
import type { LogRecord } from '../logging/log-record.ts';
import type { FlatException } from './flatten-error.ts';
import type { StackFrame } from './stack-trace.ts';

function frameView(frame: StackFrame): SafeHtml {
  const where = html`<span class="frame-fn">${frame.function}</span> <span class="frame-file">${frame.file}:${frame.line}</span>`;
  if (frame.vendor) return html`<li><details class="vendor"><summary>${where}</summary></details></li>`;
  const code = frame.excerpt.map((text, i) => {
    const n = frame.excerptStart + i;
    return html`<span class="${n === frame.line ? 'current' : ''}"><i>${n}</i>${text}</span>`;
  });
  return html`<li>${where}${code.length > 0 ? html`<pre>${code}</pre>` : ''}</li>`;
}

export function exceptionChainView(chain: readonly FlatException[]): SafeHtml {
  return html`<h2>Exceptions <small>(${chain.length})</small></h2>
<ol class="exception-chain">${chain.map(
    (e) => html`<li><div class="exception-title"><span class="exception-class">${e.class}</span><span class="exception-message">${e.message}</span></div>
<ol class="trace">${e.frames.map(frameView)}</ol></li>`,
  )}</ol>`;
}

export function logsView(logs: readonly LogRecord[]): SafeHtml {
  if (logs.length === 0) return html`<h2>Log</h2><p class="empty">No log messages.</p>`;
  return html`<h2>Log <small>(${logs.length})</small></h2>
<table class="logs"><thead><tr><th>Time</th><th>Level</th><th>Channel</th><th>Message</th><th>Context</th></tr></thead><tbody>${logs.map(
    (r) => html`<tr><td>${new Date(r.time).toISOString().slice(11, 23)}</td><td class="level-${r.level}">${r.level}</td><td>${r.channel}</td><td>${r.message}</td><td><code>${Object.keys(r.context).length > 0 ? JSON.stringify(r.context) : ''}</code></td></tr>`,
  )}</tbody></table>`;
}

/**
 * The body of the exception view: the chain (outermost first) with stack traces, and the request's
 * log. The debug error page wraps it; the profiler's exception panel serves it as is.
 */
export function exceptionView(chain: readonly FlatException[], logs: readonly LogRecord[]): SafeHtml {
  return html`<div class="exception-body">${exceptionChainView(chain)}${logsView(logs)}</div>`;
}
