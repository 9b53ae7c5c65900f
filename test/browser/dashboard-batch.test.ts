import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const SANCTIONED_ETH = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // OFAC SDN in data/risk/sanctions_ofac.csv: HIGH
const SANCTIONED_BTC = '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h'; // OFAC SDN: HIGH
const CLEAN_ETH = `0x${randomBytes(20).toString('hex')}`; // on no list: LOW
/** The test stack configures no chain node: every target is screened on the reference data only, at 1 credit. */
const COMPLETED_WITHIN_MS = 60_000;

jest.setTimeout(150_000);

let stack: TestStack;
let browser: Browser;
let worker: { stop(): Promise<void> };

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ worker: false }), launchBrowser()]);
  worker = await stack.startWorker();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const csvFile = (text: string, name = 'targets.csv') => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

async function openBatch(page: Page, key: string): Promise<void> {
  await signInWithKey(page, stack.api.url, key);
  await page.getByText('Live', { exact: true }).waitFor();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Batch', exact: true }).click();
  await page.getByRole('heading', { name: 'Screen a list of targets' }).waitFor();
  await page.locator('section[aria-labelledby="batches-title"][aria-busy="false"]').waitFor();
}

describe('dashboard: batch screening', () => {
  test(
    'When a CSV with a bad row and three list-only targets is uploaded (and the first answer is lost), then one ' +
      'batch is made, the bad row is listed with its line, progress reaches completed by socket, the rows show ' +
      'their levels, and the results download as CSV with the credential',
    async () => {
      const user = await stack.createUser({ credits: 20 });
      const { page, pageErrors } = await openPage(browser);
      await openBatch(page, user.key);
      await page.getByTestId('batches-empty').waitFor();

      // A file without a header row is refused in the page, next to the file input; nothing is sent.
      const fileInput = page.getByLabel('CSV file of targets');
      await fileInput.setInputFiles(csvFile(`${SANCTIONED_ETH},ethereum,case-1\n`, 'no-header.csv'));
      await expect(page.locator('#batch-file-error').textContent()).resolves.toMatch(
        new RegExp(
          /^The first row must name the columns \(address or txid, chain, and optionally reference_id\); /.source +
            /it has “0x4f47/.source,
        ),
      );
      await expect(fileInput.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(fileInput.getAttribute('aria-describedby')).resolves.toContain('batch-file-error');
      await saveScreenshot(page, 'batch-bad-file');

      const csv = [
        'address,chain,reference_id',
        `${SANCTIONED_ETH},ethereum,case-1`,
        'not-an-address,ethereum,case-2',
        `${SANCTIONED_BTC},bitcoin,"case-3, quoted"`,
        `${CLEAN_ETH},ethereum,case-4`,
      ].join('\r\n');
      await fileInput.setInputFiles(csvFile(csv));
      await expect(page.getByTestId('batch-file-summary').textContent()).resolves.toBe(
        '4 targets read from targets.csv.',
      );
      await expect(page.locator('#batch-file-error').count()).resolves.toBe(0);

      // No worker: the batch stays running until the test starts one, so its progress must arrive by socket.
      await worker.stop();
      const posts: { key: string | null; status: number }[] = [];
      await page.route('**/api/v1/kyt/batch', async (route) => {
        const answer = await route.fetch();
        posts.push({ key: route.request().headers()['idempotency-key'] ?? null, status: answer.status() });
        // The first answer is lost on the way back: the batch exists, the page does not know it.
        if (posts.length === 1) return route.abort('connectionreset');
        return route.fulfill({ response: answer });
      });
      const submit = page.getByRole('button', { name: 'Screen 4 targets' });
      await submit.dblclick();
      await page.getByRole('alert').filter({ hasText: 'The service could not be reached' }).waitFor();
      await submit.click();
      await page.waitForFunction(() => /^#\/batch\/[0-9a-f-]{36}$/.test(window.location.hash));
      const batchId = (await page.evaluate(() => window.location.hash)).split('/')[2] as string;
      await page.unroute('**/api/v1/kyt/batch');
      // However often it was sent, it went with one key, and one batch exists.
      expect(posts.length).toBeGreaterThanOrEqual(2);
      expect(posts.map((p) => p.status)).toEqual(posts.map(() => 202));
      expect(posts[0]?.key).toMatch(/^dashboard-[0-9a-f-]{32,36}$/);
      expect(new Set(posts.map((p) => p.key))).toEqual(new Set([posts[0]?.key]));
      const listed = await stack.http('GET', '/api/v1/kyt/batches', { key: user.key });
      expect(listed.body.data.map((b: { batch_id: string }) => b.batch_id)).toEqual([batchId]);

      // The bad row, with its line in the file and the API's reason; it cost nothing.
      const detail = page.getByTestId('batch-detail');
      const invalid = page.getByTestId('invalid-items').locator('tbody tr');
      // The detail loads after the navigation: wait for its rows before counting them.
      await invalid.first().waitFor();
      await expect(invalid.count()).resolves.toBe(1);
      const api = await stack.http('GET', `/api/v1/kyt/batch/${batchId}`, { key: user.key });
      const reason = api.body.data.invalid_items[0];
      expect(reason).toMatchObject({ index: 1, reference_id: 'case-2', parameter: 'items[1].address' });
      await expect(invalid.locator('td').allTextContents()).resolves.toEqual([
        '2',
        '3',
        'case-2',
        'address',
        reason.message,
      ]);
      await expect(detail.getByTestId('batch-status').textContent()).resolves.toBe('Running: 1 item of 4 finished…');
      await expect(page.locator('#batch-progress-bar').getAttribute('value')).resolves.toBe('1');

      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
      worker = await stack.startWorker();
      await detail
        .getByTestId('batch-status')
        .filter({ hasText: /^Completed: / })
        .waitFor({ timeout: COMPLETED_WITHIN_MS });
      await expect(detail.getByTestId('batch-status').textContent()).resolves.toBe(
        'Completed: 3 items screened, 0 failed, 0 refused for lack of credits, 1 invalid.',
      );
      await expect(page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).resolves.toBe(
        true,
      );
      await expect(page.locator('#batch-progress-bar').getAttribute('value')).resolves.toBe('4');
      await expect(detail.locator('[data-count="charged"]').textContent()).resolves.toBe('3');

      // The item rows, as the API has them: levels and the standard model's score.
      const rows = detail.getByTestId('batch-item');
      await rows
        .filter({ has: page.locator('[data-field="risk"]', { hasText: 'HIGH' }) })
        .first()
        .waitFor();
      const shown = await rows.evaluateAll((trs) =>
        trs.map((tr) => ({
          status: tr.getAttribute('data-status'),
          risk: tr.querySelector('[data-field="risk"]')?.textContent,
          standard: tr.querySelector('[data-field="standard"]')?.textContent,
        })),
      );
      const items = (await stack.http('GET', `/api/v1/kyt/batch/${batchId}`, { key: user.key })).body.data.items;
      interface Item {
        status: string;
        risk_level: string | null;
        risk_score: number | null;
        standard_risk_level: string | null;
        standard_risk_score: number | null;
      }
      const score = (level: string | null, s: number | null) => (level ? `${level} ${s}` : '—');
      expect(shown).toEqual(
        items.map((i: Item) => ({
          status: i.status,
          risk: score(i.risk_level, i.risk_score),
          standard: score(i.standard_risk_level, i.standard_risk_score),
        })),
      );
      expect(shown.map((s) => s.risk?.split(' ')[0])).toEqual(['HIGH', '—', 'HIGH', 'LOW']);
      await expect(page.getByTestId('header-balance').textContent()).resolves.toBe('17');
      await saveScreenshot(page, 'batch-completed');

      // The download carries the credential (a plain link could not): the same bytes as the API's results.csv.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        detail.getByRole('button', { name: 'Download results (CSV)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`batch-${batchId}.csv`);
      const downloaded = await readFile((await download.path()) as string, 'utf8');
      const fromApi = await stack.http('GET', `/api/v1/kyt/batch/${batchId}/results.csv`, { key: user.key });
      expect(downloaded).toBe(fromApi.body);
      const lines = downloaded.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'index,request_id,api_type,chain,target,reference_id,status,risk_level,risk_score,standard_risk_level,' +
          'standard_risk_score,credits_charged,error_code,error_message',
      );
      expect(lines).toHaveLength(5);
      expect(lines[3]).toContain('"case-3, quoted"');

      // The list of recent batches shows it, completed.
      const listRow = page.getByTestId('batch-list').locator(`tr[data-id="${batchId}"]`);
      await expect(listRow.locator('[data-field="status"]').textContent()).resolves.toBe('completed');
      await expect(listRow.locator('[data-field="finished"]').textContent()).resolves.toBe('4 of 4');
      expect(pageErrors).toEqual([]);
    },
  );
});
