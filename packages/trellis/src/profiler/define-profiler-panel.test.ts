import { test } from 'node:test';
import assert from 'node:assert/strict';
import { html } from '../html/html.ts';
import { defineProfilerPanel, isProfilerPanel } from './define-profiler-panel.ts';
import type { Profile } from './profile.ts';

const panel = defineProfilerPanel({
  id: 'cache-hits',
  label: 'Cache',
  collect: ({ request }) => ({ url: request.url }),
  render: (data) => html`<h2>Cache</h2><p>${data.url}</p>`,
});
const profileWith = (collectors: Record<string, unknown>) => ({ collectors }) as unknown as Profile;

test('a defined panel is a panel with its collector, named by its id', () => {
  assert.equal(panel.name, 'cache-hits');
  assert.equal(panel.collector?.name, 'cache-hits');
  assert.equal(isProfilerPanel(panel), true);
  assert.equal(isProfilerPanel({ name: 'x', label: 'X', badge: () => null, render: () => html`` }), false);
});

test('it renders its data, escaped, and says so when a profile has none (older, or its collector failed)', () => {
  assert.equal(panel.render(profileWith({ 'cache-hits': { url: '/a?<b>' } }), { timeZone: 'UTC' }).toString(), '<h2>Cache</h2><p>/a?&lt;b&gt;</p>');
  assert.equal(panel.render(profileWith({}), { timeZone: 'UTC' }).toString(), '<h2>Cache</h2><p class="pf-empty">No data was collected for this panel.</p>');
  assert.equal(panel.render(profileWith({ 'cache-hits': { error: 'boom' } }), { timeZone: 'UTC' }).toString(), '<h2>Cache</h2><p class="pf-empty">No data was collected for this panel.</p>');
  assert.equal(panel.badge(profileWith({ 'cache-hits': { url: '/' } })), null, 'no badge function: no badge');
});

test('an id that is not kebab-case is refused with an exact message', () => {
  assert.throws(() => defineProfilerPanel({ id: 'Cache Hits', label: 'x', collect: () => 1, render: () => html`` }), { name: 'TypeError', message: 'A profiler panel id is kebab-case or snake_case (a-z, 0-9, - or _), got "Cache Hits"' });
});

test('a render or badge that throws (a profile of an older shape) is said in the panel and its badge, not a failed page', () => {
  const fragile = defineProfilerPanel({
    id: 'flags',
    label: 'Flags',
    collect: () => ({ flags: ['a'] }),
    render: (data) => html`<p>${data.flags.join(', ')}</p>`,
    badge: (data) => ({ text: String(data.flags.length) }),
  });
  // Stored before `flags` became an array.
  const older = profileWith({ flags: { flags: 'a,b' } });
  assert.equal(fragile.render(older, { timeZone: 'UTC' }).toString(), '<h2>Flags</h2><p class="pf-empty">This panel could not be shown: data.flags.join is not a function</p>');
  assert.deepEqual(fragile.badge(profileWith({ flags: {} })), { text: '!', level: 'error' });
  assert.deepEqual(fragile.badge(profileWith({ flags: { flags: ['a', 'b'] } })), { text: '2' });
});
