import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ worker: false }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const VIEWS = [
  { hash: 'screen', link: 'Screen' },
  { hash: 'batch', link: 'Batch' },
  { hash: 'activity', link: 'Activity' },
  { hash: 'monitors', link: 'Monitors' },
  { hash: 'cases', link: 'Cases' },
  { hash: 'policies', link: 'Policies' },
  { hash: 'credits', link: 'Credits' },
  { hash: 'keys', link: 'API keys' },
  { hash: 'markets', link: 'Markets' },
] as const;

/** Waits until no status region still says it is loading (each panel announces its loads that way). */
async function untilLoaded(page: Page): Promise<void> {
  await page.waitForFunction(
    () => ![...document.querySelectorAll('[role="status"]')].some((el) => /^Loading/.test(el.textContent ?? '')),
    undefined,
    { timeout: 15_000 },
  );
}

/** Form controls a screen reader could not name: no <label>, aria-label or aria-labelledby. */
function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(
        'input:not([type="hidden"]), select, textarea',
      ),
    ]
      .filter(
        (el) =>
          !(el.labels && el.labels.length > 0) &&
          !el.getAttribute('aria-label')?.trim() &&
          !el.getAttribute('aria-labelledby'),
      )
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/** The nav links keyboard focus lands on, tabbing from the top of the page. */
async function navLinksReachedByTab(page: Page): Promise<string[]> {
  // Focusing the body moves the browser's tab starting point to the top, as on a fresh load
  // (otherwise Tab continues from the nav link clicked to get here).
  await page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
  const reached = new Set<string>();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    const inNav = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.closest('nav[aria-label="Dashboard"]') ? (el.textContent ?? '') : null;
    });
    if (inNav) reached.add(inNav);
  }
  return [...reached];
}

describe('dashboard at phone width', () => {
  test(
    'When each view is opened at 390×844, then nothing scrolls sideways, every form control has a name, ' +
      'and the keyboard reaches every nav link',
    async () => {
      // An admin sees the most controls (the grant form too).
      const admin = await stack.createUser({ role: 'admin', credits: 12 });
      const { page, pageErrors } = await openPage(browser, { width: 390, height: 844 });
      await signInWithKey(page, stack.api.url, admin.key);

      for (const view of VIEWS) {
        await page
          .getByRole('navigation', { name: 'Dashboard' })
          .getByRole('link', { name: view.link, exact: true })
          .click();
        await page.waitForFunction((hash) => window.location.hash.startsWith(`#/${hash}`), view.hash);
        await page.locator('main h1').first().waitFor();
        await untilLoaded(page);
        if (view.hash === 'markets')
          await page
            .getByTestId('candle-summary')
            .filter({ hasText: /candles, / })
            .waitFor();

        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect({ view: view.hash, fits: widths.scroll <= widths.client, ...widths }).toEqual({
          view: view.hash,
          fits: true,
          ...widths,
        });
        expect({ view: view.hash, unnamed: await unnamedControls(page) }).toEqual({ view: view.hash, unnamed: [] });
        await page.mouse.move(0, 0);
        await saveScreenshot(page, `phone-${view.hash}`);
        expect({ view: view.hash, reached: (await navLinksReachedByTab(page)).sort() }).toEqual({
          view: view.hash,
          reached: VIEWS.map((v) => v.link).sort(),
        });
      }
      expect(pageErrors).toEqual([]);
    },
  );
});
