import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { PAYFAST_PASSPHRASE, WEBHOOK_ENV } from '../helpers/webhooks';
import { signCheckoutFields } from '../../src/billing/payfast/checkout-signature';

let stack: TestStack;
let browser: Browser;
let admin: { id: string; key: string };

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
  admin = await stack.createUser({ role: 'admin' });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Signs in, opens Credits from the nav and waits until the page is live (events before that would be missed). */
async function openCredits(page: Page, key: string): Promise<void> {
  await signInWithKey(page, stack.api.url, key);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Credits' }).click();
  await page.getByRole('heading', { name: 'Credits', level: 1 }).waitFor();
  await page.getByText('Live', { exact: true }).waitFor();
}

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent();

describe('dashboard credits', () => {
  test(
    'When an admin grants credits from another client, then the balance, the header and the feed change live ' +
      'without re-reading the balance',
    async () => {
      const user = await stack.createUser({ credits: 7 });
      const { page, pageErrors } = await openPage(browser);
      const balanceReads: string[] = [];
      page.on('request', (req) => {
        if (req.url().includes('/api/v1/credits/balance')) balanceReads.push(req.url());
      });
      await openCredits(page, user.key);
      await page.getByTestId('credits-available').filter({ hasText: '7' }).waitFor();
      expect(balanceReads).toHaveLength(1);

      const grant = await stack.http('POST', '/api/v1/credits/grant', {
        key: admin.key,
        body: { userId: user.id, amount: 10, reason: 'browser test', idempotencyKey: `browser-credits-${user.id}` },
      });
      expect([grant.status, grant.body.data.balance]).toEqual([200, 17]);

      await page
        .getByTestId('credit-announcement')
        .filter({ hasText: '10 credits granted (admin): balance 17' })
        .waitFor({ timeout: 10_000 });
      await page.getByTestId('header-balance').filter({ hasText: '17' }).waitFor({ timeout: 10_000 });
      await expect(text(page, 'credits-available')).resolves.toBe('17');
      await expect(text(page, 'credits-balance')).resolves.toBe('17');
      await expect(text(page, 'credits-reserved')).resolves.toBe('0');
      const feed = page.getByTestId('credit-feed').getByRole('listitem');
      await expect(feed.count()).resolves.toBe(1);
      await expect(feed.first().textContent()).resolves.toMatch(/^\+10 creditsadminbalance 17\d\d:\d\d:\d\d UTC$/);
      // The figures came from the socket: the balance was read once, when the page opened.
      expect(balanceReads).toHaveLength(1);
      const server = await stack.http('GET', '/api/v1/credits/balance', { key: user.key });
      expect(server.body.data).toMatchObject({ balance: 17, reserved: 0, available: 17, debt: 0 });
      await saveScreenshot(page, 'credits-live-grant');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When a screening job is charged while the page is open, then the charge appears in the feed and the ' +
      'balance drops without a reload',
    async () => {
      const user = await stack.createUser({ credits: 7 });
      const { page, pageErrors } = await openPage(browser);
      await openCredits(page, user.key);
      await page.getByTestId('credits-available').filter({ hasText: '7' }).waitFor();

      // An OFAC-listed address, screened on the reference data alone (no chain node here): one credit.
      const submit = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'ethereum', address: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c' },
      });
      expect(submit.status).toBe(202);

      await page
        .getByTestId('credit-announcement')
        .filter({ hasText: /^1 credit charged \(.+\): balance 6$/ })
        .waitFor({ timeout: 30_000 });
      await page.getByTestId('credits-available').filter({ hasText: '6' }).waitFor();
      await page.getByTestId('header-balance').filter({ hasText: '6' }).waitFor();
      await expect(text(page, 'credits-reserved')).resolves.toBe('0');
      const server = await stack.http('GET', '/api/v1/credits/balance', { key: user.key });
      expect(server.body.data).toMatchObject({ balance: 6, reserved: 0, available: 6, debt: 0 });
      await saveScreenshot(page, 'credits-live-charge');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When the Credits page opens, then every package is listed with its name, credits and prices as the ' +
      'API gives them, and PayFast checkout not being configured is said in words',
    async () => {
      const user = await stack.createUser({ credits: 3 });
      const packages = await stack.http('GET', '/api/v1/credits/packages');
      expect(packages.body.data.length).toBeGreaterThan(0);
      const { page, pageErrors } = await openPage(browser);
      await openCredits(page, user.key);

      for (const pkg of packages.body.data as {
        id: string;
        name: string;
        credits: number;
        prices: { currency: string; amount: string; paypalPlanId?: string }[];
      }[]) {
        const card = page.getByTestId(`package-${pkg.id}`);
        await expect(card.getByRole('heading', { level: 3 }).textContent()).resolves.toBe(pkg.name);
        const cardText = await card.textContent();
        expect(cardText).toContain(`${pkg.credits} credits`);
        for (const price of pkg.prices) {
          expect(cardText).toContain(`${price.currency} ${price.amount}`);
          if (price.paypalPlanId) expect(cardText).toContain(price.paypalPlanId);
        }
      }
      await expect(page.getByText('This account has no PayPal subscriptions.').count()).resolves.toBe(1);

      const payfastPackage = (
        packages.body.data as { id: string; name: string; prices: { provider: string }[] }[]
      ).find((p) => p.prices.some((price) => price.provider === 'payfast'));
      expect(payfastPackage).toBeDefined();
      await page.getByRole('button', { name: `Buy ${payfastPackage?.name} with PayFast` }).click();
      const alert = page.getByTestId('checkout-error').getByRole('alert');
      await expect(alert.textContent()).resolves.toBe(
        `The PayFast checkout for ${payfastPackage?.name} could not start. PayFast checkout is not configured on ` +
          `this deployment (PAYFAST_MERCHANT_ID, PAYFAST_MERCHANT_KEY, PAYFAST_MERCHANT_PASSPHRASE).`,
      );
      await expect(
        page.getByRole('button', { name: `Buy ${payfastPackage?.name} with PayFast` }).isEnabled(),
      ).resolves.toBe(true);
      await expect(page.locator('main').textContent()).resolves.not.toContain('{"');
      await saveScreenshot(page, 'credits-packages');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When an admin double-clicks "Grant credits", then the ' + 'user is granted once and the admin sees it confirmed',
    async () => {
      const user = await stack.createUser({ credits: 2 });
      const { page, pageErrors } = await openPage(browser);
      await openCredits(page, admin.key);

      await page.getByLabel('User id').fill(user.id);
      await page.getByLabel('Credits to grant').fill('5');
      await page.getByLabel('Reason (optional)').fill('support goodwill');
      await page.getByRole('button', { name: 'Grant credits' }).dblclick();

      await page.getByText(`Granted 5 credits to ${user.id}: their balance is now 7.`).waitFor();
      const server = await stack.http('GET', '/api/v1/credits/balance', { key: user.key });
      expect(server.body.data.balance).toBe(7);
      const { rows } = await stack.pool.query(
        "SELECT count(*)::int AS n FROM credit_transactions WHERE user_id = $1 AND kind = 'grant' AND source = 'admin'",
        [user.id],
      );
      expect(rows[0].n).toBe(1);
      await saveScreenshot(page, 'credits-admin-grant');
      expect(pageErrors).toEqual([]);
    },
  );

  test('When a non-admin opens Credits, then there is no grant form', async () => {
    const user = await stack.createUser();
    const { page, pageErrors } = await openPage(browser);
    await openCredits(page, user.key);
    await page.getByTestId('credits-available').filter({ hasText: '0' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Grant credits' }).count()).resolves.toBe(0);
    await expect(page.getByLabel('User id').count()).resolves.toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

describe('dashboard credits with PayFast configured', () => {
  let payfastStack: TestStack;
  beforeAll(async () => {
    payfastStack = await startTestStack({ worker: false, env: WEBHOOK_ENV });
  });
  afterAll(async () => payfastStack?.stop());

  test(
    'When a person buys a package with PayFast, then the ' + 'browser posts the signed checkout form to PayFast',
    async () => {
      const user = await payfastStack.createUser();
      // With the served Content-Security-Policy in force: its form-action must allow the PayFast checkout.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (err) => pageErrors.push(err.message));
      const posted: { url: string; method: string; body: string }[] = [];
      // PayFast itself is not reachable from here: the stub stands in for its payment page.
      await context.route('https://sandbox.payfast.co.za/**', async (route) => {
        posted.push({
          url: route.request().url(),
          method: route.request().method(),
          body: route.request().postData() ?? '',
        });
        await route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: '<!doctype html><title>PayFast</title><h1>PayFast sandbox stub</h1>',
        });
      });
      await signInWithKey(page, payfastStack.api.url, user.key);
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Credits' }).click();

      await page.getByRole('button', { name: 'Buy Pro with PayFast' }).click();
      await page.getByRole('heading', { name: 'PayFast sandbox stub' }).waitFor({ timeout: 10_000 });

      expect(posted.map((p) => [p.method, p.url])).toEqual([['POST', 'https://sandbox.payfast.co.za/eng/process']]);
      const fields = Object.fromEntries(new URLSearchParams(posted[0]?.body));
      const { rows } = await payfastStack.pool.query(
        'SELECT m_payment_id, package_id, amount_cents FROM payfast_checkouts WHERE user_id = $1',
        [user.id],
      );
      expect(rows).toEqual([{ m_payment_id: fields.m_payment_id, package_id: 'pro', amount_cents: 19900 }]);
      expect(fields).toMatchObject({
        merchant_id: '10000100',
        amount: '199.00',
        custom_str1: user.id,
        subscription_type: '1',
        frequency: '3',
      });
      const { signature, ...unsigned } = fields;
      expect(signature).toBe(signCheckoutFields(unsigned as Record<string, string>, PAYFAST_PASSPHRASE).signature);
      await saveScreenshot(page, 'credits-payfast-redirect');
      expect(pageErrors).toEqual([]);
      await context.close();
    },
  );
});
