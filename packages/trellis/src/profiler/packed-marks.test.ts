import assert from 'node:assert/strict';
import { test } from 'node:test';
import { profiledRequest } from './build-profile.ts';
import { hostileSnapshot } from './data-collector.contract.ts';
import { packMarks, unpackMarks } from './packed-marks.ts';
import { timeCollector } from './panels/time/time-collector.ts';
import { eventsCollector } from './panels/events/events-collector.ts';

const phases = () => ['observe', 'guard', 'firewall', 'handler', 'respond', 'terminate'];
/** What the snapshot carries once encoded and decoded, as on the profiler thread or when read. */
const sent = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

test('packed marks read back as the marks they were made from', () => {
  for (const names of [phases(), [], ['a "quoted"\nname', 'sub-request'], ['[bracketed]', 'x'], ['', 'y'], ['error']]) {
    const marks = { names, atUs: names.map((_, i) => i * 100) };
    assert.deepEqual(unpackMarks(sent(packMarks(marks))), marks);
  }
});

test('requests down the same phases share the text of their names; instants stay their own', () => {
  const a = packMarks({ names: phases(), atUs: [0, 5, 9, 12, 20, 31] });
  const b = packMarks({ names: phases(), atUs: [0, 7, 8, 15, 26, 40] });
  assert.equal(a.names, b.names);
  assert.deepEqual(b.atUs, [0, 7, 8, 15, 26, 40]);
  assert.equal(JSON.stringify(a.names), `"${a.names}"`, 'written as it is, nothing escaped');
  assert.notEqual(packMarks({ names: [...phases(), 'error'], atUs: [0, 1, 2, 3, 4, 5, 6] }).names, a.names);
});

test('collectors see the same marks, packed or whole (older profiles hold them whole)', () => {
  const options = { maxBodyBytes: 4096, redactKeys: ['password'] };
  const marks = { names: phases(), atUs: [0, 567, 9856, 10382, 17786, 22053] };
  const whole = profiledRequest({ ...hostileSnapshot(), marks }, options);
  const packed = profiledRequest(sent({ ...hostileSnapshot(), marks: packMarks(marks) }), options);
  assert.deepEqual(timeCollector.collect(packed), timeCollector.collect(whole));
  assert.deepEqual(eventsCollector.collect(packed), eventsCollector.collect(whole));
});
