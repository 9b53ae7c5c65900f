import type { Browser } from 'playwright-core';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ worker: false }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('dashboard sign-in', () => {
  test('When a person signs in with a valid API key, then the dashboard shows their credits and is live', async () => {
    const user = await stack.createUser({ credits: 7 });
    const { page, pageErrors } = await openPage(browser);

    await signInWithKey(page, stack.api.url, user.key);

    await expect(page.getByTestId('header-balance').textContent()).resolves.toBe('7');
    await page.getByText('Live', { exact: true }).waitFor();
    await saveScreenshot(page, 'sign-in-success');
    expect(pageErrors).toEqual([]);
  });

  test('When the key is wrong, then the form says so in words and stays on the sign-in page', async () => {
    const { page, pageErrors } = await openPage(browser);
    await page.goto(`${stack.api.url}/app`);

    await page.getByLabel('API key').fill('cs_live_not_a_real_key_000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();

    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toBe('That key or token was not accepted. Check it and try again.');
    await expect(page.locator('body').textContent()).resolves.not.toContain('{');
    await saveScreenshot(page, 'sign-in-refused');
    expect(pageErrors).toEqual([]);
  });

  test(
    'When the root URL is opened, then it leads to the ' + 'dashboard page with its bundle from this server',
    async () => {
      const res = await fetch(`${stack.api.url}/`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/app');
      const script = await fetch(`${stack.api.url}/app/assets/main.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toContain('text/javascript');
      const missing = await stack.http('GET', '/app/assets/nothing.js');
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    },
  );
});
