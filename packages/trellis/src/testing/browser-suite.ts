/**
 * A browser test's fixture: an app listening on a loopback port and a headless Chromium, made
 * before the suite's first test and closed after its last (the browser first, then the app).
 * Call it inside a `describe`; read the values from the tests.
 */
import { after, before } from 'node:test';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { ARTIFACTS_DIR, launchBrowser } from './browser.ts';

export interface BrowserSuite {
  readonly app: FastifyInstance;
  readonly browser: Browser;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
}

export function browserSuite(makeApp: () => Promise<FastifyInstance>): BrowserSuite {
  const suite = {} as { app: FastifyInstance; browser: Browser; base: string };
  before(async () => {
    suite.app = await makeApp();
    await suite.app.listen({ port: 0, host: '127.0.0.1' });
    suite.base = `http://127.0.0.1:${(suite.app.server.address() as AddressInfo).port}`;
    suite.browser = await launchBrowser();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
  });
  after(async () => {
    await suite.browser?.close();
    await suite.app?.close();
  });
  return suite;
}
