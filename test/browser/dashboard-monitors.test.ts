import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const SANCTIONED_BTC = '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h'; // OFAC SDN (data/risk/sanctions_ofac.csv): HIGH
const OTHER_BTC = '1HmqvgSXUVES1jn4TQPzk9dxo1NE8wim2T';
/** A first screening (or a re-screen) runs as a real screening job of the owner: give it time on a busy machine. */
const SCREENED_WITHIN_MS = 45_000;

// Each test waits for real screenings (up to SCREENED_WITHIN_MS each), more than the run's default allows.
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

interface Summary {
  risk_level: 'LOW' | 'MEDIUM' | 'HIGH';
  risk_score: number;
  sanctioned: boolean;
  hits: string[];
}

async function openMonitors(page: Page, key: string): Promise<void> {
  await signInWithKey(page, stack.api.url, key);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Monitors' }).click();
  await page.getByRole('heading', { name: 'Monitor an address' }).waitFor();
  await page.locator('section[aria-labelledby="monitors-title"][aria-busy="false"]').waitFor();
}

const monitorRow = (page: Page, address: string): Locator =>
  page.getByTestId('monitor-row').filter({ hasText: address });

const alertIds = (page: Page) =>
  page.getByTestId('monitor-alert').evaluateAll((items) => items.map((i) => i.getAttribute('data-id')));

/**
 * An alert stored from outside the page, the way the monitor workflow stores one (monitors-store recordScreening):
 * the monitor's new result and the alert in one transaction. The SQL trigger sends risk_changed to the sockets.
 */
async function storeAlert(monitorId: string, userId: string, before: Summary, after: Summary, reason: string) {
  const id = randomUUID();
  const client = await stack.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('UPDATE monitors SET last_result = $2, last_screened_at = now() WHERE id = $1', [
      monitorId,
      JSON.stringify(after),
    ]);
    await client.query(
      `INSERT INTO monitor_alerts (id, monitor_id, user_id, kind, request_id, before, after, reason)
       VALUES ($1, $2, $3, 'risk_changed', NULL, $4, $5, $6)`,
      [id, monitorId, userId, JSON.stringify(before), JSON.stringify(after), reason],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
  return id;
}

describe('dashboard: monitors', () => {
  test(
    'When a monitor is added for an OFAC-listed address, then it is listed with its last result HIGH once ' +
      'screened, and alerts stored for it (from outside, then by a re-screen) appear at once without a reload',
    async () => {
      const user = await stack.createUser({ credits: 20 });
      const { page, pageErrors } = await openPage(browser);
      await openMonitors(page, user.key);
      await page.getByTestId('monitors-empty').waitFor();

      // A wrong address is refused in words, next to the field.
      await page.getByLabel('Chain').selectOption('bitcoin');
      await page.getByLabel('Address', { exact: true }).fill('not-a-bitcoin-address');
      await page.getByRole('button', { name: 'Add monitor' }).click();
      await expect(page.locator('#monitor-address-error').textContent()).resolves.toMatch(
        /^This is not a valid Bitcoin address\. Expected .+\.$/,
      );
      await expect(page.locator('body').textContent()).resolves.not.toContain('{"');

      await page.getByLabel('Address', { exact: true }).fill(SANCTIONED_BTC);
      await page.getByLabel('Alert level').selectOption('MEDIUM');
      await page.getByRole('button', { name: 'Add monitor' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Monitoring ${SANCTIONED_BTC} on Bitcoin: ` })
        .waitFor();

      const row = monitorRow(page, SANCTIONED_BTC);
      await row
        .getByTestId('monitor-result')
        .getByText('HIGH', { exact: true })
        .waitFor({ timeout: SCREENED_WITHIN_MS });
      await expect(row.getByTestId('monitor-result').textContent()).resolves.toContain('on a sanctions list');
      await expect(row.getByTestId('monitor-status').textContent()).resolves.toBe('Active');
      const listed = await stack.http('GET', '/api/v1/monitors', { key: user.key });
      const monitor = listed.body.data[0];
      expect(listed.body.data).toHaveLength(1);
      expect(monitor).toMatchObject({ chain: 'bitcoin', address: SANCTIONED_BTC, status: 'active' });
      expect(monitor.last_result).toMatchObject({ risk_level: 'HIGH', sanctioned: true });
      await expect(row.getAttribute('data-id')).resolves.toBe(monitor.id);

      // Its alerts, opened with the keyboard: none yet (the first screening is the baseline).
      await row.getByRole('link', { name: /Show alerts/ }).focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('alerts-empty').waitFor();
      expect(page.url()).toBe(`${stack.api.url}/app#/monitors/${monitor.id}`);
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('monitor-alerts-title');

      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
      let alertReads = 0;
      page.on('request', (req) => {
        if (req.url().includes('/alerts?')) alertReads += 1;
      });

      // An alert from outside the page: on top of the alerts at once, and the row shows the monitor's new result.
      const before: Summary = monitor.last_result;
      const after: Summary = { risk_level: 'MEDIUM', risk_score: 55, sanctioned: false, hits: [] };
      const outside = await storeAlert(
        monitor.id,
        user.id,
        before,
        after,
        'the address is no longer on a sanctions list (stored by the test)',
      );
      const first = page.locator(`[data-testid="monitor-alert"][data-id="${outside}"]`);
      await first.waitFor();
      await expect(first.getByTestId('alert-kind').textContent()).resolves.toBe('Risk changed');
      await expect(first.getByTestId('alert-reason').textContent()).resolves.toBe(
        'the address is no longer on a sanctions list (stored by the test)',
      );
      await expect(first.getByTestId('alert-before').textContent()).resolves.toMatch(
        /^HIGH score \d+ · on a sanctions list/,
      );
      await expect(first.getByTestId('alert-after').textContent()).resolves.toBe(
        'MEDIUM score 55 · not on a sanctions list · 0 findings',
      );
      await row.getByTestId('monitor-result').getByText('MEDIUM', { exact: true }).waitFor();
      await saveScreenshot(page, 'monitors-live-alert');

      // Re-screen now: the monitor workflow screens it again, finds it sanctioned (HIGH) against the MEDIUM it
      // holds, and stores its own alert, which arrives the same way.
      await row.getByRole('button', { name: /Re-screen now/ }).click();
      await row.getByText('Re-screen requested; the new result appears here.').waitFor();
      const rescreened = page
        .getByTestId('monitor-alert')
        .filter({ hasText: 'the address is now on a sanctions list (requested by the owner)' });
      await rescreened.waitFor({ timeout: SCREENED_WITHIN_MS });
      await row.getByTestId('monitor-result').getByText('HIGH', { exact: true }).waitFor();
      await row.getByText('Re-screen requested').waitFor({ state: 'detached' });

      const server = await stack.http('GET', `/api/v1/monitors/${monitor.id}/alerts`, { key: user.key });
      expect(server.body.data.map((a: { id: string }) => a.id)).toHaveLength(2);
      await expect(alertIds(page)).resolves.toEqual(server.body.data.map((a: { id: string }) => a.id));
      await expect(alertIds(page).then((ids) => ids[1])).resolves.toBe(outside);
      await expect(page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).resolves.toBe(
        true,
      );
      expect(alertReads).toBe(0);
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'monitors-rescreen-alert');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When the owner cannot pay, then at phone width a new monitor is refused in words, a re-screen pauses the ' +
      'monitor with the alert saying why, it resumes live after a grant, and is deleted with the keyboard',
    async () => {
      // One credit: the create holds it for the first screening, which spends it; a re-screen then cannot pay.
      const poor = await stack.createUser({ credits: 1 });
      const admin = await stack.createUser({ role: 'admin' });
      const { page, pageErrors } = await openPage(browser, { width: 390, height: 844 });
      await openMonitors(page, poor.key);

      // A monitor id that is not the account's is said in words.
      await page.goto(`${stack.api.url}/app#/monitors/${randomUUID()}`);
      await expect(page.getByTestId('monitor-alerts').getByRole('alert').textContent()).resolves.toBe(
        'None of your monitors has this id. It may have been deleted, or the link is mistyped.',
      );
      await page.goto(`${stack.api.url}/app#/monitors`);

      // Added with the keyboard only: Enter in the address field submits the form.
      await page.getByLabel('Chain').selectOption('bitcoin');
      await page.getByLabel('Address', { exact: true }).fill(SANCTIONED_BTC);
      await page.getByLabel('Address', { exact: true }).press('Enter');
      const row = monitorRow(page, SANCTIONED_BTC);
      await row
        .getByTestId('monitor-result')
        .getByText('HIGH', { exact: true })
        .waitFor({ timeout: SCREENED_WITHIN_MS });

      // A second monitor's first screening cannot be paid for: refused in words, and nothing is added.
      await page.getByLabel('Address', { exact: true }).fill(OTHER_BTC);
      await page.getByLabel('Address', { exact: true }).press('Enter');
      await page
        .getByRole('alert')
        .filter({ hasText: /^Not enough credits: this needs 1, and 0 are available/ })
        .waitFor();
      await expect(page.getByTestId('monitor-row').count()).resolves.toBe(1);

      await row.getByRole('button', { name: /Re-screen now/ }).click();
      await row
        .getByTestId('monitor-status')
        .getByText(/^Paused: the account cannot pay for a re-screen/)
        .waitFor({ timeout: SCREENED_WITHIN_MS });
      await row.getByRole('link', { name: 'Go to Credits' }).waitFor();
      const id = await row.getAttribute('data-id');
      await row.getByRole('link', { name: /Show alerts/ }).click();
      const paused = page.getByTestId('monitor-alert').filter({ hasText: 'Paused' });
      await paused.waitFor();
      await expect(paused.getByTestId('alert-reason').textContent()).resolves.toMatch(/cannot pay/);

      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      const unnamed = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select, textarea')]
          .filter((el) => !(el.labels && el.labels.length > 0) && !el.getAttribute('aria-label'))
          .map((el) => el.outerHTML.slice(0, 120)),
      );
      expect(unnamed).toEqual([]);
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'monitors-paused-phone');

      // A grant from another client resumes it: the resumed alert arrives on top and the row is screened again.
      const grant = await stack.http('POST', '/api/v1/credits/grant', {
        key: admin.key,
        body: { userId: poor.id, amount: 5, idempotencyKey: `browser-monitor-resume-${id}` },
      });
      expect(grant.status).toBe(200);
      await page
        .getByTestId('monitor-alert')
        .first()
        .getByTestId('alert-kind')
        .filter({ hasText: /^Resumed$/ })
        .waitFor();
      await row
        .getByTestId('monitor-result')
        .getByText('HIGH', { exact: true })
        .waitFor({ timeout: SCREENED_WITHIN_MS });
      await expect(row.getByTestId('monitor-status').textContent()).resolves.toBe('Active');

      // Deleted with the keyboard: Delete, then Confirm delete (which takes the focus), both by Enter.
      await row.getByRole('button', { name: /^Delete/ }).focus();
      await page.keyboard.press('Enter');
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toMatch(/^Confirm delete/);
      await page.keyboard.press('Enter');
      await page.getByTestId('monitors-empty').waitFor();
      await page.waitForFunction(() => window.location.hash === '#/monitors');
      const gone = await stack.http('GET', `/api/v1/monitors/${id}`, { key: poor.key });
      expect(gone.status).toBe(404);
      await saveScreenshot(page, 'monitors-deleted-phone');
      expect(pageErrors).toEqual([]);
    },
  );
});
