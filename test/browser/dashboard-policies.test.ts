import type { Browser, Locator, Page, Request } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';

// "Xether.io: Games", labelled gambling (medium confidence) in data/risk/address_labels.csv: MEDIUM as shipped.
const GAMBLING = '0x0c073c92e7684031cfc297b83ecc33619e864d18';
const POLICY = 'strict-gambling';
const SCREENED_WITHIN_MS = 45_000;

jest.setTimeout(150_000);

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

async function openPolicies(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Policies', exact: true })
    .click();
  await page.locator('section[aria-labelledby="policies-title"][aria-busy="false"]').waitFor();
}

/** Waits until the element says exactly `text` (what it said before an action may still be shown for a moment). */
async function saysExactly(locator: Locator, text: string): Promise<void> {
  // 'attached': an <option> is never "visible" to playwright.
  await locator.filter({ hasText: text }).waitFor({ state: 'attached' });
  await expect(locator.textContent()).resolves.toBe(text);
}

/** The body of every PUT of the policy the page sends, in order. */
function recordPuts(page: Page): unknown[] {
  const bodies: unknown[] = [];
  page.on('request', (req: Request) => {
    if (req.method() === 'PUT' && req.url().endsWith(`/api/v1/policies/${POLICY}`)) bodies.push(req.postDataJSON());
  });
  return bodies;
}

describe('dashboard: risk policies', () => {
  test(
    'When a policy is created with a bad value, then the field shows the API message; fixed, it is saved as ' +
      'version 1, an edit makes version 2, it becomes the default and scores a screening beside the standard ' +
      'score, a rescore is shown, and it is deleted',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const { page, pageErrors } = await openPage(browser);
      const puts = recordPuts(page);
      await signInWithKey(page, stack.api.url, user.key);
      await openPolicies(page);
      await page.getByTestId('policies-empty').waitFor();
      await expect(page.getByTestId('account-default').textContent()).resolves.toBe(
        'Account default: the standard model',
      );

      await page.getByRole('link', { name: 'New policy' }).click();
      await page.getByRole('heading', { name: 'New policy' }).waitFor();
      // Every input carries the model's bounds and starts at the standard value.
      const bounds = (await stack.http('GET', '/api/v1/policies/bounds', { key: user.key })).body.data;
      const severity = page.getByLabel('Severity of gambling');
      await expect(severity.inputValue()).resolves.toBe(String(bounds.categories.gambling.severity));
      await expect(severity.evaluate((el: HTMLInputElement) => [el.min, el.max, el.step, el.type])).resolves.toEqual([
        String(bounds.bounds.severity[0]),
        String(bounds.bounds.severity[1]),
        '1',
        'number',
      ]);
      await expect(page.locator('#policy-categories-gambling-severity-hint').textContent()).resolves.toBe(
        `standard ${bounds.categories.gambling.severity}; a whole number from ${bounds.bounds.severity[0]} to ` +
          `${bounds.bounds.severity[1]}`,
      );
      const minShare = page.getByLabel('Least share of the flow (0.05 = 5 %)');
      await expect(minShare.evaluate((el: HTMLInputElement) => [el.min, el.max, el.step])).resolves.toEqual([
        String(bounds.bounds.min_share[0]),
        String(bounds.bounds.min_share[1]),
        'any',
      ]);
      await expect(page.getByLabel('HIGH from score').inputValue()).resolves.toBe(String(bounds.levels.HIGH));
      const categoryRows = page.getByTestId('category-table').locator('tbody tr');
      await expect(categoryRows.count()).resolves.toBe(Object.keys(bounds.categories).length);

      // A value beyond the bounds goes to the API, whose refusal is shown next to that field, which takes the focus.
      await page.getByLabel('Id', { exact: true }).fill(POLICY);
      await page.getByLabel('Name', { exact: true }).fill('Strict gambling');
      await severity.fill('150');
      await page.getByRole('button', { name: 'Create policy' }).click();
      const fieldError = page.locator('#policy-categories-gambling-severity-error');
      await fieldError.waitFor();
      expect(puts[0]).toEqual({
        name: 'Strict gambling',
        description: null,
        categories: { gambling: { severity: 150 } },
        indirect: {},
        levels: {},
      });
      const refused = await stack.http('PUT', `/api/v1/policies/${POLICY}`, { key: user.key, body: puts[0] });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.parameter).toBe('categories.gambling.severity');
      await expect(fieldError.textContent()).resolves.toBe(sentence(refused.body.error.message));
      await expect(fieldError.getAttribute('role')).resolves.toBe('alert');
      await expect(severity.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(severity.getAttribute('aria-describedby')).resolves.toBe(
        'policy-categories-gambling-severity-hint policy-categories-gambling-severity-error',
      );
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe(
        'policy-categories-gambling-severity',
      );
      await saveScreenshot(page, 'policy-field-error');

      // Fixed: version 1, with only the changed settings sent.
      await severity.fill('90');
      await expect(fieldError.count()).resolves.toBe(0);
      await page.getByLabel('Severe: gambling').check();
      await page.getByLabel('HIGH from score').fill('65');
      await page.getByRole('button', { name: 'Create policy' }).click();
      await saysExactly(page.getByTestId('policy-saved'), 'Created “Strict gambling” as version 1.');
      expect(puts[1]).toEqual({
        name: 'Strict gambling',
        description: null,
        categories: { gambling: { severity: 90, severe: true } },
        indirect: {},
        levels: { HIGH: 65 },
      });
      expect(page.url()).toBe(`${stack.api.url}/app#/policies/${POLICY}`);
      const row = page.locator(`[data-testid="policy-row"][data-id="${POLICY}"]`);
      await saysExactly(row.getByTestId('policy-version'), 'v1');
      const v1 = (await stack.http('GET', `/api/v1/policies/${POLICY}`, { key: user.key })).body.data;
      expect(v1).toMatchObject({
        version: 1,
        name: 'Strict gambling',
        categories: { gambling: { severity: 90, severe: true } },
        severe_categories: ['gambling'],
        levels: { HIGH: 65 },
        default: false,
      });

      // An edit makes version 2; the editor shows what version 2 holds.
      await page.getByRole('heading', { name: 'Edit Strict gambling (version 1)' }).waitFor();
      await page.getByLabel('Weight of mixer').fill('2');
      await expect(page.locator('tr[data-category="mixer"] .changed-mark').textContent()).resolves.toBe(' changed');
      await page.getByRole('button', { name: 'Save as a new version' }).click();
      await saysExactly(
        page.getByTestId('policy-saved'),
        'Saved “Strict gambling” as version 2; answers scored under version 1 keep it.',
      );
      await saysExactly(row.getByTestId('policy-version'), 'v2');
      await page.getByRole('heading', { name: 'Edit Strict gambling (version 2)' }).waitFor();
      await expect(page.getByLabel('Weight of mixer').inputValue()).resolves.toBe('2');
      await expect(page.getByLabel('Severity of gambling').inputValue()).resolves.toBe('90');
      await expect(page.getByLabel('Severe: gambling').isChecked()).resolves.toBe(true);
      const v2 = (await stack.http('GET', `/api/v1/policies/${POLICY}`, { key: user.key })).body.data;
      expect(v2).toMatchObject({ version: 2, categories: { mixer: { weight: 2 } } });
      // No answer was scored under version 1, so writing version 2 pruned it.
      const pruned = await stack.http('GET', `/api/v1/policies/${POLICY}?version=1`, { key: user.key });
      expect(pruned.status).toBe(404);
      await saveScreenshot(page, 'policy-saved-v2');

      // The account default.
      await row.getByRole('button', { name: 'Make default Strict gambling' }).click();
      await saysExactly(row.getByTestId('policy-default'), 'Default');
      await page.getByTestId('account-default').filter({ hasText: 'Strict gambling v2' }).waitFor();
      const byDefault = await stack.http('GET', '/api/v1/policies/default', { key: user.key });
      expect(byDefault.body.data.policy_id).toBe(POLICY);

      // Screening under the default: the policy's verdict beside the standard model's.
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Screen' }).click();
      const picker = page.getByLabel('Risk policy');
      await saysExactly(picker.locator('option:checked'), 'Account default (Strict gambling v2)');
      await expect(picker.locator('option').allTextContents()).resolves.toEqual([
        'Account default (Strict gambling v2)',
        'Standard model',
        `Strict gambling v2 (${POLICY})`,
      ]);
      await page.getByLabel('Chain').selectOption('ethereum');
      await page.getByLabel('Address', { exact: true }).fill(GAMBLING);
      await page.getByRole('button', { name: 'Screen', exact: true }).click();
      const scores = page.getByTestId('policy-scores').first();
      await scores.waitFor({ timeout: SCREENED_WITHIN_MS });
      const requestId = (await page
        .getByTestId('recent-submissions')
        .locator('tbody tr td.mono')
        .first()
        .textContent())!;
      const job = (await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key: user.key })).body.data.response;
      expect(job.policy).toEqual({ id: POLICY, version: 2, name: 'Strict gambling' });
      expect(job.risk_level).toBe('HIGH');
      expect(job.standard.risk_level).toBe('MEDIUM');
      await expect(scores.getByTestId('policy-score').textContent()).resolves.toBe(
        `Policy Strict gambling v2: HIGH ${job.risk_score}`,
      );
      await expect(scores.getByTestId('standard-score').textContent()).resolves.toBe(
        `Standard model: MEDIUM ${job.standard.risk_score} model ${job.standard.model_version}`,
      );

      // Rescored under the standard model, for the price on the button.
      await page.getByLabel('Rescore under', { exact: true }).selectOption('standard');
      await page.getByRole('button', { name: 'Rescore (1 credit)' }).click();
      const rescored = page.getByTestId('rescore-result');
      await rescored.waitFor();
      await expect(rescored.getByTestId('policy-score').textContent()).resolves.toBe(
        `Standard model: MEDIUM ${job.standard.risk_score}`,
      );
      const charged = (await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key: user.key })).body.data
        .credits_charged as number;
      await page
        .getByTestId('header-balance')
        .filter({ hasText: String(10 - charged - 1) })
        .waitFor();
      await saveScreenshot(page, 'screening-policy-scores');

      // Deleted: gone from the list, the account back on the standard model, the API answers 404.
      await openPolicies(page);
      await row.getByRole('button', { name: 'Delete the policy Strict gambling' }).click();
      await row.getByRole('button', { name: 'Confirm delete the policy Strict gambling' }).click();
      await page.getByTestId('policies-empty').waitFor();
      await expect(page.getByTestId('account-default').textContent()).resolves.toBe(
        'Account default: the standard model',
      );
      await expect(
        page
          .getByRole('status')
          .filter({ hasText: `The policy ${POLICY} was deleted.` })
          .count(),
      ).resolves.toBe(1);
      expect((await stack.http('GET', `/api/v1/policies/${POLICY}`, { key: user.key })).status).toBe(404);
      expect(pageErrors).toEqual([]);
    },
  );
});
