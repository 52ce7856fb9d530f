// The web debug toolbar, in the browser. Served at /_wdt/toolbar.js to clients the profiler gate
// allows, loaded by the markup the server puts before </body> (toolbar-injection.ts) with the
// response's CSP nonce. Everything lives in a shadow root: the host page's CSS cannot reach the
// toolbar, and the toolbar's cannot reach the page. Values from the network are set as text,
// never as markup; the only markup inserted is the fragment the profiler rendered and escaped.
(() => {
  'use strict';
  const host = document.getElementById('trellis-wdt');
  if (!host || host.shadowRoot || !/^[0-9a-f]{6}$/.test(host.dataset.token || '')) return;
  const token = host.dataset.token;
  const nonce = document.currentScript ? document.currentScript.nonce : '';
  const HIDDEN_KEY = 'trellis.wdt.hidden';
  const MAX_ROWS = 50;

  const root = host.attachShadow({ mode: 'open' });
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = '/_wdt/toolbar.css';
  if (nonce) sheet.nonce = nonce;
  const frame = document.createElement('div');
  frame.className = 'wdt';
  frame.hidden = true;
  root.append(sheet, frame);
  sheet.addEventListener('load', () => { frame.hidden = false; });

  const store = {
    get: () => { try { return localStorage.getItem(HIDDEN_KEY) === '1'; } catch { return false; } },
    set: (hidden) => { try { localStorage.setItem(HIDDEN_KEY, hidden ? '1' : '0'); } catch { /* storage blocked: state is per page */ } },
  };

  // Requests the page makes, kept until the fragment is there to show them.
  const seen = [];
  let tbody = null;
  let count = null;
  let ajaxItem = null;

  function profileHref(token, link) {
    if (link) {
      try {
        const url = new URL(link, location.href);
        if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
      } catch { /* not a URL: fall back to this origin's profiler */ }
    }
    return '/_profiler/' + token;
  }

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.append(td);
    return td;
  }

  function addRow(entry) {
    if (!tbody) return;
    const row = document.createElement('tr');
    const first = document.createElement('td');
    const a = document.createElement('a');
    a.href = profileHref(entry.token, entry.link);
    a.textContent = entry.token;
    a.target = '_blank';
    a.rel = 'noopener';
    first.append(a);
    row.append(first);
    cell(row, String(entry.status), entry.status >= 400 ? 'wdt-error' : '');
    cell(row, entry.method);
    cell(row, entry.url, 'wdt-url').title = entry.url;
    cell(row, entry.ms.toFixed(0) + ' ms');
    tbody.prepend(row);
    while (tbody.rows.length > MAX_ROWS) tbody.deleteRow(-1);
    count.textContent = String(Number(count.textContent) + 1);
    ajaxItem.hidden = false;
  }

  function record(method, url, status, started, headers) {
    const debugToken = headers('x-debug-token');
    if (!debugToken || !/^[0-9a-f]{6}$/.test(debugToken)) return;
    // Same-origin URLs are shown as their path: the origin is the page's own.
    const shown = String(url).startsWith(location.origin + '/') ? String(url).slice(location.origin.length) : String(url);
    const entry = { token: debugToken, link: headers('x-debug-token-link'), method: String(method || 'GET').toUpperCase(), url: shown, status, ms: performance.now() - started };
    seen.push(entry);
    addRow(entry);
  }

  // fetch(): wrapped, never replaced in behaviour (the same promise result, errors passed through).
  const nativeFetch = window.fetch;
  if (typeof nativeFetch === 'function') {
    window.fetch = function (input, init) {
      const started = performance.now();
      const method = (init && init.method) || (input && typeof input === 'object' && 'method' in input ? input.method : 'GET');
      const url = typeof input === 'string' ? input : input && (input.url || input.href || String(input));
      return nativeFetch.apply(this, arguments).then((response) => {
        try { record(method, url, response.status, started, (name) => response.headers.get(name)); } catch { /* never break the page */ }
        return response;
      });
    };
  }
  // XMLHttpRequest: through its prototype, so instances made before or after are both seen.
  const proto = window.XMLHttpRequest && window.XMLHttpRequest.prototype;
  if (proto) {
    const open = proto.open;
    const send = proto.send;
    const meta = new WeakMap();
    proto.open = function (method, url) {
      meta.set(this, { method, url });
      return open.apply(this, arguments);
    };
    proto.send = function () {
      const started = performance.now();
      const info = meta.get(this);
      this.addEventListener('loadend', () => {
        try { if (info && this.status) record(info.method, info.url, this.status, started, (name) => this.getResponseHeader(name)); } catch { /* never break the page */ }
      });
      return send.apply(this, arguments);
    };
  }

  function wire() {
    const bar = frame.querySelector('.wdt-bar');
    const show = frame.querySelector('.wdt-show');
    const hide = frame.querySelector('.wdt-hide');
    const toggle = frame.querySelector('.wdt-ajax-toggle');
    const panel = frame.querySelector('.wdt-ajax-panel');
    tbody = frame.querySelector('.wdt-ajax-panel tbody');
    count = frame.querySelector('.wdt-ajax-count');
    ajaxItem = frame.querySelector('.wdt-ajax');
    const setHidden = (hidden) => {
      bar.hidden = hidden;
      show.hidden = !hidden;
      store.set(hidden);
    };
    hide.addEventListener('click', () => setHidden(true));
    show.addEventListener('click', () => setHidden(false));
    toggle.addEventListener('click', () => {
      panel.hidden = !panel.hidden;
      toggle.setAttribute('aria-expanded', String(!panel.hidden));
    });
    if (store.get()) {
      bar.hidden = true;
      show.hidden = false;
    }
    for (const entry of seen) addRow(entry);
  }

  nativeFetch.call(window, '/_wdt/' + token, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
    .then((response) => (response.ok ? response.text() : Promise.reject(new Error('toolbar ' + response.status))))
    .then((markup) => {
      frame.innerHTML = markup;
      wire();
    })
    .catch(() => { host.remove(); });
})();
