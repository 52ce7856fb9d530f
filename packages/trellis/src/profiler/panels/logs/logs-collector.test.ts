import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProfile } from '../../build-profile.ts';
import { CANARY, SINK_BUILD, snapshotFor } from '../../profile-sink.contract.ts';
import { cutString } from '../../../logging/cut-string.ts';
import { defaultCollectors } from '../default-collectors.ts';
import type { Profile } from '../../profile.ts';
import type { LogsData } from './logs-collector.ts';

test('a log string cut at the first characters of a secret loses them; whole secrets are scrubbed as everywhere', async () => {
  // The request's Authorization header holds the canary, so the profile knows it as a secret.
  const cutInSecret = cutString(`${'p'.repeat(20)}${CANARY}`, 20 + 8);
  const base = snapshotFor('a1b2c3');
  const snapshot = {
    ...base,
    logs: [
      { time: 0, level: 'info', channel: 'app', message: cutInSecret, context: { received: cutInSecret, list: [cutInSecret], whole: `x ${CANARY} y` } },
      { time: 0, level: 'debug', channel: 'app', message: `${'m'.repeat(20)}${CANARY.slice(0, 8)}`, context: {} },
    ],
  };
  const profile = (await buildProfile(snapshot, defaultCollectors, SINK_BUILD)) as Profile;
  const logs = profile.collectors.logs as LogsData;
  const kept = `${'p'.repeat(20)}[redacted]… [${(20 + CANARY.length).toLocaleString('en-US')} characters]`;
  assert.equal(logs.records[0]!.message, kept);
  assert.deepEqual(logs.records[0]!.context, { received: kept, list: [kept], whole: 'x [redacted] y' });
  // Not cut by the record: the text is the app's own, left as written.
  assert.equal(logs.records[1]!.message, `${'m'.repeat(20)}${CANARY.slice(0, 8)}`);
  assert.equal(JSON.stringify(logs).includes(CANARY.slice(0, 8) + '…'), false);
});
