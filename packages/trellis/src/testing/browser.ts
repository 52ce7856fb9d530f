/**
 * Headless Chromium for browser tests: Debian's `chromium` driven by playwright-core (never a
 * downloaded browser). Where it is missing the suite is skipped with a line saying so, unless
 * TRELLIS_REQUIRE_BROWSER=1 (set by CI), which makes it a failure.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function browserSkipReason(): string | false {
  if (existsSync(CHROMIUM_PATH)) return false;
  if (process.env.TRELLIS_REQUIRE_BROWSER === '1') throw new Error(`Chromium is required (TRELLIS_REQUIRE_BROWSER=1) but ${CHROMIUM_PATH} does not exist`);
  const reason = `Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium): skipping browser tests`;
  console.log(`# ${reason}`);
  return reason;
}

/** Playwright gives each launch a fresh temporary profile (it refuses a --user-data-dir here). */
export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where browser tests keep screenshots (ignored by git). */
export const ARTIFACTS_DIR = join(process.cwd(), 'test-artifacts');
