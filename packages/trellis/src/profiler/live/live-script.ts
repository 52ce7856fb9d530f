import { createHash } from 'node:crypto';
/**
 * The live page's script, served as `/_profiler/live.js` (the profiler's CSP runs no inline
 * script). Plain ES2020 for the browser, kept as text here so the package ships it without a
 * build step of its own. Rows are built with `textContent` only: a URL is data, never markup.
 * EventSource reconnects by itself, sending the last event's id (Last-Event-ID), and the server
 * resends what it missed (live-route.ts).
 */
export const liveScript = String.raw`'use strict';
(() => {
  const MAX_ROWS = 500;
  const rows = document.getElementById('live-rows');
  const form = document.getElementById('live-filter');
  const pause = document.getElementById('live-pause');
  const state = document.getElementById('live-state');
  let paused = false;
  let held = [];

  const filter = () => ({
    method: form.elements.method.value,
    status: form.elements.status.value.trim().toLowerCase().replace(/x+$/, ''),
    url: form.elements.url.value.trim().toLowerCase(),
  });
  const matches = (d, f) =>
    (f.method === '' || d.method === f.method) &&
    (f.status === '' || d.status.startsWith(f.status)) &&
    (f.url === '' || d.url.toLowerCase().includes(f.url));
  const show = () => {
    const f = filter();
    for (const tr of rows.rows) tr.hidden = !matches(tr.dataset, f);
  };
  const say = () => {
    state.textContent = paused ? 'paused' + (held.length > 0 ? ' (' + held.length + ' new)' : '') : state.dataset.connection || '';
  };
  const cell = (tr, text, className) => {
    const td = tr.insertCell();
    td.textContent = text;
    if (className) td.className = className;
    return td;
  };
  const add = (p) => {
    const tr = document.createElement('tr');
    tr.className = 'live-row';
    tr.dataset.token = p.token;
    tr.dataset.method = p.method;
    tr.dataset.status = String(p.statusCode);
    tr.dataset.url = p.url;
    const badge = document.createElement('span');
    const s = Number(p.statusCode);
    badge.className = 'pf-badge status-' + Math.floor(s / 100) + 'xx' + (s >= 500 ? ' error' : s >= 400 ? ' warn' : '');
    badge.textContent = String(s);
    cell(tr, '').append(badge);
    cell(tr, p.method);
    cell(tr, p.url, 'mono');
    cell(tr, Number(p.durationMs).toFixed(1) + ' ms', 'mono');
    cell(tr, p.formattedTime, 'mono');
    const a = document.createElement('a');
    a.className = 'mono token';
    a.href = '/_profiler/' + encodeURIComponent(p.token);
    a.textContent = p.token;
    cell(tr, '').append(a);
    tr.hidden = !matches(tr.dataset, filter());
    rows.prepend(tr);
    while (rows.rows.length > MAX_ROWS) rows.deleteRow(-1);
  };

  form.addEventListener('input', show);
  form.addEventListener('submit', (e) => e.preventDefault());
  pause.addEventListener('click', () => {
    paused = !paused;
    pause.textContent = paused ? 'Resume' : 'Pause';
    pause.setAttribute('aria-pressed', String(paused));
    if (!paused) {
      const waiting = held;
      held = [];
      waiting.forEach(add);
    }
    say();
  });

  const source = new EventSource('/_profiler/live/events');
  source.addEventListener('open', () => {
    state.dataset.connection = 'live';
    say();
  });
  source.addEventListener('error', () => {
    state.dataset.connection = source.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting…';
    say();
  });
  source.addEventListener('message', (e) => {
    let p;
    try {
      p = JSON.parse(e.data);
    } catch {
      return;
    }
    if (paused) {
      held.push(p);
      if (held.length > MAX_ROWS) held.shift();
    } else add(p);
    say();
  });
})();
`;

/** Its Subresource Integrity value: the live page loads it with `integrity`, and its CSP allows exactly that hash. */
export const LIVE_SCRIPT_INTEGRITY = `sha256-${createHash('sha256').update(liveScript).digest('base64')}`;
