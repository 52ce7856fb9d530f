/**
 * A credential is redacted whatever Content-Type it was declared with: JSON sent as text/plain
 * and cut short (so it does not parse), or `key: value` text, kept its password in the stored
 * profile and its pages while the same body sent as application/json was redacted (attack pass).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allRecords, BROWSER, profilerApp } from './profiler-app.ts';

test('a text/plain body that is malformed JSON or key: value lines has its secrets redacted before storage', async () => {
  const app = await profilerApp();
  try {
    const bodies = ['{"email":"a","password":"TXTSECRET123"', 'user: ann\npassword: TXTSECRET456\n'];
    const tokens: string[] = [];
    for (const payload of bodies) {
      const r = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'text/plain' }, payload });
      assert.equal(r.statusCode, 200);
      tokens.push(r.headers['x-debug-token'] as string);
    }
    for (const record of await allRecords(app)) {
      const text = JSON.stringify(record);
      assert.equal(/TXTSECRET\d+/.test(text), false, `stored record ${record?.token} holds a secret`);
    }
    for (const token of tokens) {
      const request = (await app.inject({ url: `/_profiler/${token}?panel=request`, headers: { accept: BROWSER } })).body;
      const har = (await app.inject({ url: `/_profiler/${token}.har` })).body;
      assert.equal(/TXTSECRET\d+/.test(request + har), false, `a page of ${token} shows a secret`);
      assert.match(request, /password(&quot;|&#34;|")?: ?(&quot;|&#34;|")?\[redacted\]/);
    }
  } finally {
    await app.close();
  }
});
