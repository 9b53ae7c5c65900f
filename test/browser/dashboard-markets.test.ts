import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';

let stack: TestStack;
let browser: Browser;
/** A key of its own for the test's API reads, so they do not spend the page's per-key budget. */
let reader: { id: string; key: string };

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ worker: false }), launchBrowser()]);
  reader = await stack.createUser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

interface Candle {
  timestamp: string;
  close: number;
}

const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** What the page must state for an answer of the candles endpoint, derived here from the API's own data. */
async function expectedSummary(
  symbol: string,
  interval: string,
  limit: number,
): Promise<{ text: string; total: number; latest: Candle }> {
  const res = await stack.http(
    'GET',
    `/api/v1/market-data/candles?symbol=${symbol}&interval=${interval}&limit=${limit}`,
    { key: reader.key },
  );
  expect(res.status).toBe(200);
  const data = res.body.data as Candle[];
  const total = res.body.meta.total as number;
  expect(total).toBe(data.length);
  expect(total).toBeGreaterThan(0);
  return {
    text:
      `${total.toLocaleString('en-US')} candles, ${minute(data[0]!.timestamp)} – ` +
      `${minute(data[total - 1]!.timestamp)} UTC`,
    total,
    latest: data[total - 1]!,
  };
}

async function openMarkets(page: Page, key: string): Promise<void> {
  await signInWithKey(page, stack.api.url, key);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Markets' }).click();
  await page.getByRole('heading', { name: 'Market candles', level: 1 }).waitFor();
}

describe('dashboard markets', () => {
  test(
    'When a person picks a listed symbol and interval, then a candlestick chart is drawn and the stated ' +
      'count and range match the API',
    async () => {
      const caps = (await stack.http('GET', '/api/v1/capabilities', { key: reader.key })).body.data;
      const connector = caps.connectors.find((c: { symbols: unknown[] }) => c.symbols.length > 0);
      const symbol = connector.symbols[0];
      const listed: string[] = caps.intervals.filter((i: string) =>
        symbol.intervals.some((s: { interval: string }) => s.interval === i),
      );
      const first = listed[0]!;
      // A coarse interval with fewer stored candles than the page will ask for, so the count visibly changes.
      const coarse = [...listed]
        .reverse()
        .find((i) => symbol.intervals.find((s: { interval: string }) => s.interval === i).candles < 100)!;
      expect(coarse).toBeDefined();
      const user = await stack.createUser();
      const { page, pageErrors } = await openPage(browser);
      await openMarkets(page, user.key);

      await page.getByLabel('Symbol').selectOption(symbol.symbol);
      await page.getByLabel('Interval').selectOption(first);
      const fine = await expectedSummary(symbol.symbol, first, 500);
      const summary = page.getByTestId('candle-summary');
      await summary.filter({ hasText: fine.text }).waitFor();
      await expect(summary.textContent()).resolves.toBe(fine.text);
      expect(page.url()).toContain(`#/markets/${symbol.symbol}/${first}/500`);

      const canvases = page.getByTestId('candle-chart').locator('canvas');
      await expect(canvases.count()).resolves.toBeGreaterThan(0);
      const box = await canvases.first().boundingBox();
      expect(box?.width).toBeGreaterThan(300);
      expect(box?.height).toBeGreaterThan(100);
      const newest = page.getByTestId('candle-table').locator('tbody tr').first();
      await expect(newest.locator('th').textContent()).resolves.toBe(minute(fine.latest.timestamp));
      await expect(newest.locator('td').nth(3).textContent()).resolves.toBe(
        fine.latest.close.toLocaleString('en-US', { maximumFractionDigits: 8 }),
      );
      await saveScreenshot(page, 'markets-chart');

      await page.getByLabel('How many candles').selectOption('100');
      const latest100 = await expectedSummary(symbol.symbol, first, 100);
      expect(latest100.total).toBe(100);
      await summary.filter({ hasText: latest100.text }).waitFor();

      await page.getByLabel('Interval').selectOption(coarse);
      const wide = await expectedSummary(symbol.symbol, coarse, 100);
      expect(wide.total).toBeLessThan(100);
      await summary.filter({ hasText: wide.text }).waitFor();
      await expect(summary.textContent()).resolves.toBe(wide.text);
      await expect(page.getByTestId('candle-table').locator('caption').textContent()).resolves.toContain(
        `of the ${wide.total} candles shown`,
      );
      expect(page.url()).toContain(`#/markets/${symbol.symbol}/${coarse}/100`);
      await saveScreenshot(page, 'markets-chart-coarse');
      expect(pageErrors).toEqual([]);
    },
  );

  test('When the key has used up its market-data requests for the minute, then the page says so in words', async () => {
    const user = await stack.createUser();
    for (let i = 1; i <= 60; i++) {
      const res = await stack.http('GET', '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=1d&limit=1', {
        key: user.key,
      });
      expect([i, res.status]).toEqual([i, 200]);
    }
    const { page, pageErrors } = await openPage(browser);
    await openMarkets(page, user.key);

    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(
      /^Too many requests for your plan this minute\. Wait a moment and try again\. You can retry in \d+ s\.$/,
    );
    await expect(page.locator('main').textContent()).resolves.not.toContain('{');
    await expect(page.getByTestId('candle-chart').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Try again' }).count()).resolves.toBe(1);
    const after = await stack.http('GET', '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=1d&limit=1', {
      key: user.key,
    });
    expect([after.status, after.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    await saveScreenshot(page, 'markets-rate-limited');
    expect(pageErrors).toEqual([]);
  });
});
