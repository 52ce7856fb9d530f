import { test } from 'node:test';
import assert from 'node:assert/strict';
import { html, raw, safeHref } from './html.ts';

test('interpolated values are escaped', () => {
  const evil = `<script>alert("x")</script>&'\``;
  assert.equal(
    html`<p title="${evil}">${evil}</p>`.toString(),
    '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;&#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;&#96;</p>',
  );
});

test('nested templates, arrays and raw() are kept as markup; null, undefined and false vanish', () => {
  const items = ['a<', 'b'].map((x) => html`<li>${x}</li>`);
  assert.equal(html`<ul>${items}</ul>${raw('<hr>')}${null}${undefined}${false}${0}`.toString(), '<ul><li>a&lt;</li><li>b</li></ul><hr>0');
});

test('safeHref only lets http(s) URLs and same-origin paths through', () => {
  assert.equal(safeHref('https://x.test/a'), 'https://x.test/a');
  assert.equal(safeHref('/_profiler/abc123'), '/_profiler/abc123');
  assert.equal(safeHref('javascript:alert(1)'), '#');
  assert.equal(safeHref('//evil.test/'), '#');
  assert.equal(safeHref('data:text/html,x'), '#');
});
