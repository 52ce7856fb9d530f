import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiate } from './negotiate.ts';

const AVAILABLE = ['application/ld+json', 'application/json', 'text/html'];

test('no Accept, or */*, gives the server preference', () => {
  assert.equal(negotiate(undefined, AVAILABLE), 'application/ld+json');
  assert.equal(negotiate('*/*', AVAILABLE), 'application/ld+json');
});

test('a browser Accept prefers text/html over the */* fallback', () => {
  assert.equal(negotiate('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', AVAILABLE), 'text/html');
});

test('q-values and specificity decide (RFC 9110 §12.5.1)', () => {
  assert.equal(negotiate('application/json;q=0.5, application/ld+json;q=0.4', AVAILABLE), 'application/json');
  assert.equal(negotiate('application/*;q=0.2, application/json', AVAILABLE), 'application/json');
  assert.equal(negotiate('*/*, application/ld+json;q=0', AVAILABLE), 'application/json');
  assert.equal(negotiate('TEXT/HTML', AVAILABLE), 'text/html');
});

test('nothing acceptable gives null', () => {
  assert.equal(negotiate('text/plain', AVAILABLE), null);
  assert.equal(negotiate('application/json;q=0', AVAILABLE), null);
});
