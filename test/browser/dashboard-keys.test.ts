import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { recordSecret } from '../helpers/run-log';
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

// The listed prefix: "cs_live_" and 6 more characters (displayPrefix in src/identity/api-key-format.ts).
const prefixOf = (key: string) => key.slice(0, 14);

async function openKeys(page: Page, key: string): Promise<void> {
  await signInWithKey(page, stack.api.url, key);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' }).click();
  await page.getByTestId('key-table').waitFor();
}

const rowOf = (page: Page, key: string) => page.locator(`tr[data-key-prefix="${prefixOf(key)}"]`);

describe('dashboard API keys', () => {
  test(
    'When a person creates a key, then it is shown once, works against the API, ' +
      'and once revoked in the page it is refused',
    async () => {
      const user = await stack.createUser();
      const { page, pageErrors } = await openPage(browser);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.api.url });
      await openKeys(page, user.key);
      await expect(page.getByTestId('key-table').locator('tbody tr').count()).resolves.toBe(1);

      await page.getByLabel('Name of the new key').fill('browser-ci');
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = (await page.getByTestId('new-key-value').textContent())?.trim() ?? '';
      expect(shown).toMatch(/^cs_live_[A-Za-z0-9_-]{43}$/);
      await expect(page.getByTestId('new-key-box').textContent()).resolves.toContain('it will not be shown again');
      await page.waitForFunction(() => document.activeElement?.id === 'new-key-title');

      const me = await stack.http('GET', '/api/v1/me', { key: shown });
      expect([me.status, me.body.data.id]).toEqual([200, user.id]);
      await rowOf(page, shown).waitFor();
      await expect(rowOf(page, shown).locator('td').first().textContent()).resolves.toBe('browser-ci');
      await expect(rowOf(page, shown).locator('td').nth(1).textContent()).resolves.toBe(`${prefixOf(shown)}…`);
      await expect(page.getByTestId('key-table').locator('tbody tr').count()).resolves.toBe(2);

      await page.getByRole('button', { name: 'Copy key' }).click();
      await page.getByText('Copied to the clipboard.').waitFor();
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(shown);
      await saveScreenshot(page, 'keys-created-once');

      await page.getByRole('button', { name: 'I have saved it, hide the key' }).click();
      await expect(page.getByTestId('new-key-box').count()).resolves.toBe(0);
      await expect(page.content()).resolves.not.toContain(shown);

      // Keyboard only: the confirmation is a second button that takes the focus.
      await rowOf(page, shown)
        .getByRole('button', { name: /^Revoke/ })
        .focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.textContent === 'Confirm revoke');
      await expect(rowOf(page, shown).textContent()).resolves.toContain(
        'Programs using this key stop working at once.',
      );
      await saveScreenshot(page, 'keys-confirm-revoke');
      await page.keyboard.press('Enter');

      await rowOf(page, shown)
        .getByText(/^Revoked \d{4}-\d\d-\d\d \d\d:\d\d UTC$/)
        .waitFor();
      const refused = await stack.http('GET', '/api/v1/me', { key: shown });
      expect(refused.status).toBe(401);
      const listed = await stack.http('GET', '/api/v1/api-keys', { key: user.key });
      expect(listed.body.data.find((k: { prefix: string }) => k.prefix === prefixOf(shown)).revokedAt).toEqual(
        expect.any(String),
      );
      // The key the page signed in with is untouched.
      expect((await stack.http('GET', '/api/v1/me', { key: user.key })).status).toBe(200);
      await saveScreenshot(page, 'keys-revoked');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When a person creates a key with only the read scope, ' + 'then it is listed with it and the API refuses it a job',
    async () => {
      const user = await stack.createUser();
      const { page, pageErrors } = await openPage(browser);
      await openKeys(page, user.key);
      await expect(rowOf(page, user.key).getByTestId('key-scopes').textContent()).resolves.toBe('all');

      await page.getByLabel('Name of the new key').fill('read-only');
      for (const scope of ['Screening', 'Billing', 'Keys'])
        await page.getByRole('checkbox', { name: new RegExp(`^${scope}:`) }).uncheck();
      await saveScreenshot(page, 'keys-scope-choice');
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = (await page.getByTestId('new-key-value').textContent())?.trim() ?? '';
      recordSecret(shown);
      await rowOf(page, shown).waitFor();
      await expect(rowOf(page, shown).getByTestId('key-scopes').textContent()).resolves.toBe('read');

      expect((await stack.http('GET', '/api/v1/credits/balance', { key: shown })).status).toBe(200);
      const job = await stack.http('POST', '/api/v1/kyt/job', {
        key: shown,
        body: { chain: 'ethereum', address: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c' },
      });
      expect([job.status, job.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);

      // The form starts afresh with every scope; with every box cleared there is nothing to create.
      for (const scope of ['Read', 'Screening', 'Billing', 'Keys'])
        await page.getByRole('checkbox', { name: new RegExp(`^${scope}:`) }).uncheck();
      await page.getByText('Choose at least one.').waitFor();
      await expect(page.getByRole('button', { name: 'Create key' }).isDisabled()).resolves.toBe(true);
      expect(pageErrors).toEqual([]);
    },
  );

  test('When a person starts revoking and cancels, then the key stays active', async () => {
    const user = await stack.createUser();
    const { page, pageErrors } = await openPage(browser);
    await openKeys(page, user.key);
    await rowOf(page, user.key)
      .getByRole('button', { name: /^Revoke/ })
      .click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent?.startsWith('Revoke') === true);
    expect((await stack.http('GET', '/api/v1/me', { key: user.key })).status).toBe(200);
    expect(pageErrors).toEqual([]);
  });

  test(
    'When a person revokes the key they are signed in ' + 'with, then they are warned first and signed out after',
    async () => {
      const user = await stack.createUser();
      const { page, pageErrors } = await openPage(browser);
      await openKeys(page, user.key);
      await expect(rowOf(page, user.key).textContent()).resolves.toContain('signed in with this key');

      await rowOf(page, user.key)
        .getByRole('button', { name: /^Revoke/ })
        .click();
      await expect(
        rowOf(page, user.key)
          .getByText(/This is the key you are signed in with/)
          .textContent(),
      ).resolves.toContain('signs you out of this dashboard');
      await saveScreenshot(page, 'keys-revoke-own-warning');
      await page.getByRole('button', { name: 'Confirm revoke' }).click();

      await page.getByText('Your key or session is no longer accepted. Sign in again.').waitFor();
      await expect(page.getByLabel('API key').isVisible()).resolves.toBe(true);
      expect((await stack.http('GET', '/api/v1/me', { key: user.key })).status).toBe(401);
      await saveScreenshot(page, 'keys-revoked-own-signed-out');
      expect(pageErrors).toEqual([]);
    },
  );
});
