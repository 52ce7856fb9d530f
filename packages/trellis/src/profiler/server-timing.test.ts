import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverTiming } from './server-timing.ts';

test('phases from mark to mark, repeated ones summed, db time and count, total', () => {
  const marks = { names: ['observe', 'guard', 'handler', 'sub request', 'handler'], atUs: [0, 100, 1100, 1600, 1700] };
  assert.equal(
    serverTiming(marks, [{ durationMs: 0.25 }, { durationMs: 0.5 }], 2000),
    'observe;dur=0.100, guard;dur=1, handler;dur=0.800, sub-request;dur=0.100, db;dur=0.750;desc="2 queries", total;dur=2',
  );
  assert.equal(serverTiming({ names: ['observe'], atUs: [0] }, [{ durationMs: 1 }], 500), 'observe;dur=0.500, db;dur=1;desc="1 query", total;dur=0.500');
});

test('durations round to the microsecond, never spelled 0.1000', () => {
  assert.equal(serverTiming({ names: ['observe'], atUs: [0] }, [{ durationMs: 0.9996 }], 1999.6), 'observe;dur=2, db;dur=1;desc="1 query", total;dur=2');
  assert.equal(serverTiming({ names: ['observe'], atUs: [0] }, [], 1005), 'observe;dur=1.005, total;dur=1.005');
});

/** The header as it was built before phase plans (each name spelled and looked up per request). */
function reference(names: readonly string[], atUs: readonly number[], queries: readonly { durationMs: number }[], nowUs: number): string {
  const ms = (microseconds: number) => {
    const us = Math.round(microseconds);
    const whole = Math.trunc(us / 1000);
    const rest = Math.round(us - whole * 1000);
    return rest === 0 ? `${whole}` : `${whole}.${rest < 10 ? '00' : rest < 100 ? '0' : ''}${rest}`;
  };
  const keys: string[] = [];
  const sums: number[] = [];
  names.forEach((raw, i) => {
    const name = raw.replace(/[^!#$%&'*+.^_`|~0-9A-Za-z-]/g, '-');
    const us = Math.max(0, (i + 1 < names.length ? atUs[i + 1]! : nowUs) - atUs[i]!);
    const at = keys.indexOf(name);
    if (at < 0) (keys.push(name), sums.push(us));
    else sums[at]! += us;
  });
  let header = keys.map((key, i) => `${key};dur=${ms(sums[i]!)}`).join(', ');
  if (queries.length > 0) header += `${header ? ', ' : ''}db;dur=${ms(queries.reduce((t, q) => t + q.durationMs, 0) * 1000)};desc="${queries.length} ${queries.length === 1 ? 'query' : 'queries'}"`;
  return `${header ? `${header}, ` : ''}total;dur=${ms(Math.max(0, nowUs - (atUs[0] ?? 0)))}`;
}

test('the same header as phase by phase, for sequences met again, new, and past the plans kept', () => {
  const phases = ['observe', 'guard', 'parse', 'firewall', 'handler', 'sub request', 'respond'];
  let seed = 7;
  const random = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
  for (let run = 0; run < 500; run++) {
    const names = Array.from({ length: random(7) }, () => (random(10) === 0 ? `phase ${random(100)}` : phases[random(phases.length)]!));
    let t = 0;
    const atUs = names.map(() => (t += random(5000)));
    const queries = Array.from({ length: random(3) }, () => ({ durationMs: random(4000) / 997 }));
    const nowUs = t + random(3000);
    assert.equal(serverTiming({ names, atUs }, queries, nowUs), reference(names, atUs, queries, nowUs));
  }
});
