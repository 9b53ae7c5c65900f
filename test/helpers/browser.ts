import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (installed by .ci/run); playwright-core never downloads a browser of its own. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = path.resolve(__dirname, '../../test-artifacts/browser');

/**
 * Headless Chromium with nothing of its own reaching the network: this machine has none, and
 * background requests that fail slow every page down.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** A fresh page (own cookies and sessionStorage) that fails the test on any uncaught page error. */
export async function openPage(
  browser: Browser,
  options: { width?: number; height?: number } = {},
): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return { page, pageErrors };
}

/** Opens the dashboard and signs in with an API key through the form, as a person would. */
export async function signInWithKey(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/app`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
}

/** Keeps a picture of what the test saw under test-artifacts/browser (left in place by .ci/run). */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
