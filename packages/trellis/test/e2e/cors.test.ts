/**
 * CORS in a real browser: a page served from one loopback origin fetches from the API on another
 * port. The browser itself enforces what CORS allows: the preflight for Authorization, which
 * response headers script may read, and refusing origins the API does not allow.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { createApp } from '../../src/app/create-app.ts';
import { browserSkipReason, launchBrowser } from '../../src/testing/browser.ts';
import { testConfig } from '../../src/testing/test-config.ts';
import { PASSWORDS, login, users } from '../security/security-fixtures.ts';

const skip = browserSkipReason();

async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>client</title><p>client page</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface FetchResult {
  readonly ok: boolean;
  readonly status?: number;
  readonly link?: string | null;
  readonly debugToken?: string | null;
  readonly debugTokenLink?: string | null;
  readonly internal?: string | null;
  readonly body?: unknown;
  readonly error?: string;
}

describe('CORS from a browser', { skip }, () => {
  let browser: Browser;
  let api: FastifyInstance;
  let apiUrl: string;
  let allowedPage: { server: Server; origin: string };
  let otherPage: { server: Server; origin: string };
  let token: string;
  const preflights: string[] = [];

  before(async () => {
    allowedPage = await pageServer();
    otherPage = await pageServer();
    const allowOnly = `^${allowedPage.origin.replace(/[.]/g, '\\.')}$`;
    api = await createApp({ config: testConfig({ CORS_ALLOW_ORIGIN: allowOnly }), tls: null, security: { userProvider: users } });
    api.addHook('onResponse', async (request) => {
      if (request.method === 'OPTIONS') preflights.push(`${request.headers.origin} ${request.headers['access-control-request-headers']}`);
    });
    api.get('/books', async (request, reply) => {
      // Link is set here as the resource layer would; X-Debug-Token(-Link) come from the profiler (debug).
      reply.header('link', '</docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"').header('x-internal', 'hidden');
      return { user: request.user?.identifier ?? null };
    });
    await api.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    token = await login(api, 'alice@example.test', PASSWORDS.alice);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await api?.close();
    allowedPage?.server.close();
    otherPage?.server.close();
  });

  async function fetchFrom(origin: string): Promise<FetchResult> {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      return await page.evaluate(
        async ({ url, bearer }) => {
          try {
            const r = await fetch(url, { headers: { Authorization: `Bearer ${bearer}`, Accept: 'application/json' } });
            return { ok: true, status: r.status, link: r.headers.get('link'), debugToken: r.headers.get('x-debug-token'), debugTokenLink: r.headers.get('x-debug-token-link'), internal: r.headers.get('x-internal'), body: await r.json() };
          } catch (error) {
            return { ok: false, error: String(error) };
          }
        },
        { url: `${apiUrl}/books`, bearer: token },
      );
    } finally {
      await page.close();
    }
  }

  test('a page on an allowed origin reads Link and X-Debug-Token, not unexposed headers, after a preflight for Authorization', async () => {
    const { debugToken, debugTokenLink, ...result } = await fetchFrom(allowedPage.origin);
    assert.match(debugToken ?? '', /^[0-9a-f]{6}$/);
    assert.equal(debugTokenLink, `${apiUrl}/_profiler/${debugToken}`);
    assert.deepEqual(result, {
      ok: true,
      status: 200,
      link: '</docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"',
      internal: null,
      body: { user: 'alice@example.test' },
    });
    assert.ok(preflights.includes(`${allowedPage.origin} authorization`), `preflights seen: ${preflights.join(' | ')}`);
  });

  test('a page on another origin is refused by the browser', async () => {
    const result = await fetchFrom(otherPage.origin);
    assert.equal(result.ok, false);
    assert.match(result.error!, /TypeError: Failed to fetch/);
  });
});
