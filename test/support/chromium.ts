import { existsSync, mkdtempSync, rmSync } from 'fs';
import { Server } from 'http';
import { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { BrowserContext, Page, chromium } from 'playwright-core';
import { App } from '../../src/http/app';
import { testApp } from './app';

/*
 * Debian's chromium (installed by .ci/run with apt; nothing downloads a
 * browser) driven by playwright-core, on the real app listening on a random
 * port. Without the browser a suite is skipped locally, saying why, and fails
 * in CI.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `describe` when chromium is there, else `describe.skip` (and, in CI, a failing test that says what is missing). */
export function describeInChromium(what: string): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  if (process.env.CI === 'true') {
    test('chromium is installed for the browser test', () => {
      throw new Error(`${CHROMIUM} not found: the browser test needs Debian's chromium (apt-get install -y chromium)`);
    });
  } else {
    console.log(`${what} browser test skipped: ${CHROMIUM} not found (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  }
  return describe.skip;
}

export interface BrowserRun {
  readonly app: App;
  readonly base: string;
  readonly page: Page;
  /** Console errors and uncaught page errors so far. */
  readonly consoleErrors: string[];
  close(): Promise<void>;
}

/** The app listening on a random port and a fresh chromium profile with one page. */
export async function openBrowser(prefix: string): Promise<BrowserRun> {
  const app = await testApp();
  const server: Server = app.app.listen(0, '127.0.0.1');
  await new Promise<void>((done) => server.once('listening', () => done()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const profile = mkdtempSync(join(tmpdir(), `${prefix}-chromium-`));
  // A fresh profile each run (--user-data-dir, given to playwright as the persistent context's directory).
  const browser: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  return {
    app,
    base,
    page,
    consoleErrors,
    close: async () => {
      await browser.close();
      await new Promise<void>((done) => server.close(() => done()));
      await app.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
