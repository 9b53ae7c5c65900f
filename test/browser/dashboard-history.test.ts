import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const SECRET = 'activity-secret-for-browser-tests-0123456789';
const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ env: { ACTIVITY_WEBHOOK_SECRET: SECRET } }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A user known by a Clerk id, so the history webhook can name them, with five entries of every kind. */
async function userWithHistory() {
  const clerkUserId = `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const user = await stack.createUser({ clerkUserId, credits: 5 });
  const post = async (record: Record<string, unknown>): Promise<string> => {
    const res = await stack.http('POST', '/api/webhook/activity', {
      body: { ...record, userId: clerkUserId },
      headers: { 'x-activity-webhook-secret': SECRET },
    });
    if (res.status !== 201) throw new Error(`history webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const records = {
    ethHigh: {
      activityType: 'kya',
      blockchain: 'ethereum',
      address: '0xaaaa000000000000000000000000000000000001',
      riskLevel: 'high',
      riskScore: 90,
      requestPayload: {
        chain: 'ethereum',
        address: '0xaaaa000000000000000000000000000000000001',
        reference_id: 'case-77',
      },
      responsePayload: { risk_level: 'HIGH', risk_score: 90, risk_reason: 'Receives from a mixer' },
      metadata: { team: 'onboarding' },
    },
    ethLow: {
      activityType: 'kya',
      blockchain: 'ethereum',
      address: '0xbbbb000000000000000000000000000000000002',
      riskLevel: 'low',
      riskScore: 8,
    },
    btcHigh: {
      activityType: 'kyt',
      blockchain: 'bitcoin',
      transactionHash: 'c0ffee00000000000000000000000000000000000000000000000000000000aa',
      riskLevel: 'high',
      riskScore: 80,
    },
    tronMedium: {
      activityType: 'kya',
      blockchain: 'tron',
      address: 'TNaRAoLUyYEV2uF7GUrzSjRQTU8v5ZJ5VR',
      riskLevel: 'medium',
      riskScore: 50,
    },
    kyeError: { activityType: 'kye', entityId: 'vasp-42', entityName: 'Garantex Europe', statusCode: 502 },
  };
  const ids: Record<keyof typeof records, string> = {} as never;
  for (const [name, record] of Object.entries(records)) ids[name as keyof typeof records] = await post(record);
  return { user, ids, records, post };
}

const listedIds = (page: Page) =>
  page
    .getByTestId('history-rows')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
const range = (page: Page) => page.getByTestId('history-range').textContent();

async function applyFilters(
  page: Page,
  set: { type?: string; risk?: string; chain?: string; q?: string; errors?: boolean; perPage?: string },
) {
  await page.getByRole('button', { name: 'Clear filters' }).click();
  if (set.type) await page.getByLabel('Type').selectOption(set.type);
  if (set.risk) await page.getByLabel('Risk level').selectOption(set.risk);
  if (set.chain) await page.getByLabel('Chain').fill(set.chain);
  if (set.q) await page.getByLabel('Search').fill(set.q);
  if (set.errors) await page.getByLabel('Errors only').check();
  if (set.perPage) await page.getByLabel('Rows per page').selectOption(set.perPage);
  const loaded = page.waitForResponse((res) => res.url().includes('/api/v1/activity?'));
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await loaded;
  await waitUntilLoaded(page);
}

const waitUntilLoaded = (page: Page) => page.locator('[data-testid="history-section"][aria-busy="false"]').waitFor();

async function openHistory(page: Page, key: string) {
  await signInWithKey(page, stack.api.url, key);
  await page.getByRole('link', { name: 'Activity' }).click();
  await page.getByTestId('history-rows').waitFor();
  await waitUntilLoaded(page);
}

describe('dashboard: history', () => {
  test(
    'When the history is filtered by chain and risk level, by search text, by type or by errors, ' +
      'then exactly the matching records are listed',
    async () => {
      const { user, ids } = await userWithHistory();
      const { page, pageErrors } = await openPage(browser);
      await openHistory(page, user.key);
      await expect(listedIds(page)).resolves.toEqual([
        ids.kyeError,
        ids.tronMedium,
        ids.btcHigh,
        ids.ethLow,
        ids.ethHigh,
      ]);
      await expect(range(page)).resolves.toBe('1–5 of 5');

      await applyFilters(page, { chain: 'ethereum', risk: 'high' });
      await expect(listedIds(page)).resolves.toEqual([ids.ethHigh]);
      await expect(range(page)).resolves.toBe('1–1 of 1');
      const row = page.getByTestId('history-rows').locator('tbody tr').first();
      await expect(row.locator('td').allTextContents()).resolves.toEqual([
        expect.any(String),
        'KYA',
        'ethereum',
        '0xaaaa000000000000000000000000000000000001',
        'HIGH',
        '90',
        'OK',
      ]);
      await saveScreenshot(page, 'activity-filtered-chain-risk');

      await applyFilters(page, { q: 'GARANTEX' });
      await expect(listedIds(page)).resolves.toEqual([ids.kyeError]);
      await expect(page.getByTestId('history-rows').locator('tbody tr td').last().textContent()).resolves.toBe(
        'Error (HTTP 502)',
      );
      await applyFilters(page, { q: 'c0ffee' });
      await expect(listedIds(page)).resolves.toEqual([ids.btcHigh]);
      await applyFilters(page, { type: 'kya' });
      await expect(listedIds(page)).resolves.toEqual([ids.tronMedium, ids.ethLow, ids.ethHigh]);
      await applyFilters(page, { errors: true });
      await expect(listedIds(page)).resolves.toEqual([ids.kyeError]);
      await applyFilters(page, { chain: 'solana' });
      await expect(page.getByTestId('history-empty').textContent()).resolves.toBe('No records match these filters.');

      // A search of one letter is refused in words before it is sent.
      await page.getByLabel('Search').fill('a');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Search needs at least 2 characters.');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When the history is longer than a page, then previous and next walk through it with "x–y of total", ' +
      'at phone width without sideways scrolling',
    async () => {
      const { user, ids, post } = await userWithHistory();
      const more: string[] = [];
      for (let i = 0; i < 7; i++)
        more.push(await post({ activityType: 'kye', entityId: `vasp-${i}`, entityName: `Exchange number ${i}` }));
      const { page, pageErrors } = await openPage(browser, { width: 390, height: 844 });
      await openHistory(page, user.key);

      await applyFilters(page, { perPage: '10' });
      await expect(range(page)).resolves.toBe('1–10 of 12');
      await expect(listedIds(page)).resolves.toEqual([...more.reverse(), ids.kyeError, ids.tronMedium, ids.btcHigh]);
      await expect(page.getByRole('button', { name: 'Previous' }).isDisabled()).resolves.toBe(true);

      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByTestId('history-range').getByText('11–12 of 12').waitFor();
      await expect(listedIds(page)).resolves.toEqual([ids.ethLow, ids.ethHigh]);
      await expect(page.getByRole('button', { name: 'Next' }).isDisabled()).resolves.toBe(true);
      await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
      await saveScreenshot(page, 'activity-second-page-phone');

      await page.getByRole('button', { name: 'Previous' }).click();
      await page.getByTestId('history-range').getByText('1–10 of 12').waitFor();
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When a record is opened from the list with the keyboard, then its request and response payloads and ' +
      'metadata are shown, with a way back',
    async () => {
      const { user, ids, records } = await userWithHistory();
      const { page, pageErrors } = await openPage(browser);
      await openHistory(page, user.key);
      await applyFilters(page, { chain: 'ethereum', risk: 'high' });

      await page.getByTestId('history-rows').getByRole('link').first().focus();
      await page.keyboard.press('Enter');

      await page.getByRole('heading', { name: 'Activity record' }).waitFor();
      expect(page.url()).toBe(`${stack.api.url}/app#/activity/${ids.ethHigh}`);
      await expect(
        page
          .getByTestId('request-payload')
          .textContent()
          .then((t) => JSON.parse(t as string)),
      ).resolves.toEqual(records.ethHigh.requestPayload);
      await expect(
        page
          .getByTestId('response-payload')
          .textContent()
          .then((t) => JSON.parse(t as string)),
      ).resolves.toEqual(records.ethHigh.responsePayload);
      await expect(
        page
          .getByTestId('metadata')
          .textContent()
          .then((t) => JSON.parse(t as string)),
      ).resolves.toEqual(records.ethHigh.metadata);
      const facts = await page.getByTestId('history-facts').textContent();
      expect(facts).toContain('Risk levelHIGH');
      expect(facts).toContain(`Record id${ids.ethHigh}`);
      await saveScreenshot(page, 'activity-record-detail');

      // Back to the list as it was left: still filtered.
      await page.getByRole('link', { name: '← Back to the history' }).click();
      await page.getByTestId('history-rows').waitFor();
      await waitUntilLoaded(page);
      await expect(listedIds(page)).resolves.toEqual([ids.ethHigh]);

      // A record that does not exist (or is someone else's) is said in words.
      await page.goto(`${stack.api.url}/app#/activity/${randomUUID()}`);
      await expect(page.getByRole('alert').textContent()).resolves.toBe(
        'There is no record with this id in your history. It may belong to another account, or the link is mistyped.',
      );
      await saveScreenshot(page, 'activity-record-not-found');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When new records arrive while the filtered history is open, then the matching ones appear on top without a ' +
      'reload and the others do not',
    async () => {
      const { user, ids, post } = await userWithHistory();
      const { page, pageErrors } = await openPage(browser);
      await openHistory(page, user.key);
      await applyFilters(page, { chain: 'ethereum' });
      await expect(listedIds(page)).resolves.toEqual([ids.ethLow, ids.ethHigh]);
      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
      let listReads = 0;
      page.on('request', (req) => {
        if (req.url().includes('/api/v1/activity?')) listReads += 1;
      });

      const bitcoin = await post({
        activityType: 'kya',
        blockchain: 'bitcoin',
        address: 'bc1qnotshownhere0000000000000000000000000',
        riskLevel: 'low',
        riskScore: 3,
      });
      const webhookRow = await post({
        activityType: 'kyt',
        blockchain: 'ethereum',
        transactionHash: '0xfeed000000000000000000000000000000000000000000000000000000000001',
        riskLevel: 'medium',
        riskScore: 55,
      });
      await page.getByTestId('history-range').getByText('1–3 of 3').waitFor();
      await expect(listedIds(page)).resolves.toEqual([webhookRow, ids.ethLow, ids.ethHigh]);

      // A real screening job writes its own record when it completes.
      const job = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'ethereum', address: SANCTIONED },
      });
      expect(job.status).toBe(202);
      await page.getByTestId('history-range').getByText('1–4 of 4').waitFor();
      const top = page.getByTestId('history-rows').locator('tbody tr').first();
      await expect(top.locator('td').allTextContents()).resolves.toEqual([
        expect.any(String),
        'KYA',
        'ethereum',
        SANCTIONED,
        'HIGH',
        '100',
        'OK',
      ]);

      const server = await stack.http('GET', '/api/v1/activity?blockchain=ethereum', { key: user.key });
      await expect(listedIds(page)).resolves.toEqual(server.body.data.map((r: { id: string }) => r.id));
      expect(server.body.data.map((r: { id: string }) => r.id)).not.toContain(bitcoin);
      await expect(page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).resolves.toBe(
        true,
      );
      expect(listReads).toBe(0);
      await saveScreenshot(page, 'activity-live-records');
      expect(pageErrors).toEqual([]);
    },
  );
});
