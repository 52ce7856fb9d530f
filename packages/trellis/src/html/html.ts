/**
 * Auto-escaping HTML templates. Every interpolated value is escaped unless it is already a
 * {@link SafeHtml} (produced by `html` itself or by an explicit `raw()` call), so request data can
 * never turn into markup by accident.
 */
export class SafeHtml {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  toString(): string {
    return this.#value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Marks trusted markup as safe. Never pass request data here. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * An href that cannot run script: only http(s) URLs and same-origin paths pass; anything else
 * (javascript:, data:, protocol-relative) becomes "#".
 */
export function safeHref(url: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  return '#';
}
