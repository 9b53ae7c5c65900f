import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { sendNative, startAnvil, type AnvilNode } from '../helpers/anvil';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // OFAC SDN (NPWMD) in data/risk/sanctions_ofac.csv
const ETH = 10n ** 18n;
const fresh = () => `0x${randomBytes(20).toString('hex')}`;

let stack: TestStack;
let browser: Browser;
let node: AnvilNode;
let worker: { stop(): Promise<void> };
// The scripted chain of test/integration/exposure-crawl.test.ts: sanctioned → A → B → C on a real node.
const [A, B, C] = [fresh(), fresh(), fresh()];

beforeAll(async () => {
  node = await startAnvil({ chainId: 1 });
  [stack, browser] = await Promise.all([
    startTestStack({ env: { ETHEREUM_RPC_URL: node.rpcUrl }, worker: false }),
    launchBrowser(),
  ]);
  worker = await stack.startWorker();
  await sendNative({ rpcUrl: node.rpcUrl, from: SANCTIONED, to: A, valueWei: 10n * ETH });
  await sendNative({ rpcUrl: node.rpcUrl, from: A, to: B, valueWei: 5n * ETH });
  await sendNative({ rpcUrl: node.rpcUrl, from: B, to: C, valueWei: 2n * ETH });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await node?.stop();
});

/** Records every text the live status line shows, so a test can see queued come before completed. */
async function recordStatusTexts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { statusTexts: string[] }).statusTexts = seen;
    const note = () => {
      const text = document.querySelector('[data-testid="job-status"]')?.textContent ?? null;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const statusTexts = (page: Page) => page.evaluate(() => (window as unknown as { statusTexts: string[] }).statusTexts);

async function screenAddress(page: Page, address: string): Promise<void> {
  await page.getByLabel('Chain').selectOption('ethereum');
  await page.getByLabel('Address (KYA)').check();
  await page.getByLabel('Address', { exact: true }).fill(address);
  await page.getByRole('button', { name: 'Screen', exact: true }).click();
}

describe('dashboard: screening an address', () => {
  test(
    'When a person screens the OFAC-listed address, then the status turns from queued to completed by socket, ' +
      'with HIGH, the findings, the graph and the charge taken from the balance',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const { page, pageErrors } = await openPage(browser);
      const jobReads: string[] = [];
      page.on('request', (req) => {
        if (req.url().includes('/api/v1/kyt/job/')) jobReads.push(req.url());
      });
      await signInWithKey(page, stack.api.url, user.key);
      await page.getByText('Live', { exact: true }).waitFor();
      await expect(page.getByTestId('header-balance').textContent()).resolves.toBe('10');
      await recordStatusTexts(page);

      // No worker while the job is submitted: it stays queued for as long as the test wants to watch.
      await worker.stop();
      await screenAddress(page, SANCTIONED);
      const status = page.getByTestId('job-status');
      await status.getByText('Queued: the analysis is running…', { exact: true }).waitFor();
      const requestId = (await page
        .getByTestId('recent-submissions')
        .locator('tbody tr td.mono')
        .first()
        .textContent()) as string;
      await page.waitForTimeout(1500);
      expect(jobReads.filter((url) => url.includes(requestId))).toHaveLength(1);

      // The worker comes back, finishes the job, and the page hears it on the socket.
      worker = await stack.startWorker();
      await status.getByText('Completed', { exact: true }).waitFor();
      const seen = await statusTexts(page);
      expect(seen).toEqual(['Queued: the analysis is running…', 'Completed']);

      const job = await stack.http('GET', `/api/v1/kyt/job/${requestId}/fullresponse`, { key: user.key });
      expect(job.body.data).toMatchObject({ status: 'completed', response: { risk_level: 'HIGH', risk_score: 100 } });
      const charged: number = job.body.data.credits_charged;
      expect(charged).toBeGreaterThanOrEqual(1);

      const summary = page.getByTestId('risk-summary');
      await expect(summary.locator('.risk-level').textContent()).resolves.toBe('HIGH');
      await expect(summary.textContent()).resolves.toContain('Score 100 of 100');
      await expect(summary.textContent()).resolves.toContain(`Charged ${charged} credit`);
      await expect(page.getByTestId('risk-reason').textContent()).resolves.toContain(
        'Address is on the OFAC SDN list: Sim, Hyon Sop',
      );
      await expect(
        page.getByTestId('rule-scores').locator('tr', { hasText: 'is_sanctioned' }).locator('td').last().textContent(),
      ).resolves.toBe('100');
      const sanctionHit = page.getByTestId('hits').locator('li.hit', { hasText: 'On a sanctions list' });
      await expect(sanctionHit.locator('[data-field=score]').textContent()).resolves.toBe('100');
      await expect(sanctionHit.locator('[data-field=address]').textContent()).resolves.toBe(SANCTIONED);
      await expect(sanctionHit.locator('[data-field=role]').textContent()).resolves.toBe('target');
      await expect(sanctionHit.locator('[data-field=hop]').textContent()).resolves.toBe('0');
      await expect(sanctionHit.locator('[data-field=source]').textContent()).resolves.toMatch(/^ofac-sdn/);
      await expect(sanctionHit.locator('[data-field=path]').textContent()).resolves.toBe(
        'on the screened party itself',
      );

      // Cytoscape drew every node of the crawl graph on its canvas, and the text alternative lists the transfers.
      const graph = page.getByTestId('crawl-graph');
      await expect(graph.locator('canvas').count()).resolves.toBeGreaterThan(0);
      await expect(graph.getAttribute('data-nodes')).resolves.toBe(String(job.body.data.response.graph.nodes.length));
      await page.getByText(/The graph as tables/).click();
      const edgeRows = await page
        .getByTestId('graph-edges')
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)));
      expect(edgeRows).toEqual(
        expect.arrayContaining([
          [SANCTIONED, A.toLowerCase(), '10 ETH'],
          [A.toLowerCase(), B.toLowerCase(), '5 ETH'],
          [B.toLowerCase(), C.toLowerCase(), '2 ETH'],
        ]),
      );
      const nodeAddresses = await page.getByTestId('graph-nodes').locator('tbody tr td:first-child').allTextContents();
      expect(nodeAddresses).toEqual(
        expect.arrayContaining([SANCTIONED, A.toLowerCase(), B.toLowerCase(), C.toLowerCase()]),
      );

      // The balance in the header follows the charge, and the server agrees.
      await page
        .getByTestId('header-balance')
        .getByText(String(10 - charged), { exact: true })
        .waitFor();
      const balance = await stack.http('GET', '/api/v1/credits/balance', { key: user.key });
      expect(balance.body.data.available).toBe(10 - charged);
      await expect(page.getByTestId('recent-status').first().textContent()).resolves.toBe('completed · HIGH');

      // Live, not polled: one read right after the submit and one of the full response, then nothing more.
      await page.waitForTimeout(1000);
      const reads = jobReads.filter((url) => url.includes(requestId));
      expect(reads).toEqual([
        expect.stringMatching(new RegExp(`/api/v1/kyt/job/${requestId}$`)),
        expect.stringMatching(new RegExp(`/api/v1/kyt/job/${requestId}/fullresponse$`)),
      ]);
      await saveScreenshot(page, 'screening-sanctioned-completed');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When B, paid by A who was paid by the sanctioned address, is screened at phone width, ' +
      'then the path through A is shown with its hop count, and the submission is still there ' +
      'after a visit to Activity',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const { page, pageErrors } = await openPage(browser, { width: 390, height: 844 });
      await signInWithKey(page, stack.api.url, user.key);

      await screenAddress(page, B);

      await page.getByTestId('job-status').getByText('Completed', { exact: true }).waitFor();
      const level = await page.getByTestId('risk-summary').locator('.risk-level').textContent();
      expect(['MEDIUM', 'HIGH']).toContain(level);
      const hit = page
        .getByTestId('hits')
        .locator('li.hit')
        .filter({ has: page.locator('[data-field=category]', { hasText: /^sanctions$/ }) });
      await expect(hit.count()).resolves.toBe(1);
      await expect(hit.locator('[data-field=address]').textContent()).resolves.toBe(SANCTIONED);
      await expect(hit.locator('[data-field=hop]').textContent()).resolves.toBe('2');
      await expect(hit.locator('[data-field=role]').textContent()).resolves.toContain('hop 2 source');
      await expect(hit.locator('.hit-path li').allTextContents()).resolves.toEqual([
        B.toLowerCase(),
        A.toLowerCase(),
        SANCTIONED,
      ]);
      await expect(hit.locator('.hit-path').getAttribute('aria-label')).resolves.toBe(
        'Path over 2 hops, from the screened party to the listed address',
      );
      await expect(page.getByTestId('risk-reason').textContent()).resolves.toContain(
        `${B.toLowerCase()} → ${A.toLowerCase()} → ${SANCTIONED}`,
      );

      // Phone width: wide tables scroll inside their box, the page itself never scrolls sideways.
      await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
      await saveScreenshot(page, 'screening-indirect-path-phone');

      // The job is in the history too, and the submissions survive a visit to another view.
      await page.getByRole('link', { name: 'Activity' }).click();
      await page.getByTestId('history-rows').locator('tbody tr', { hasText: B.toLowerCase() }).waitFor();
      await page.getByRole('link', { name: 'Screen', exact: true }).click();
      await page.getByTestId('recent-submissions').waitFor();
      await expect(page.getByTestId('recent-status').allTextContents()).resolves.toEqual([`completed · ${level}`]);
      await expect(page.getByTestId('risk-summary').locator('.risk-level').textContent()).resolves.toBe(level);
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When a transaction that is not on the chain is screened, then the job turns to failed live and says why in ' +
      'words, and nothing is charged',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const { page, pageErrors } = await openPage(browser);
      await signInWithKey(page, stack.api.url, user.key);
      const missing = `0x${'ab'.repeat(32)}`;

      await page.getByLabel('Transaction (KYT)').check();
      await page.getByLabel('Transaction id (hash)').fill(missing);
      await page.getByLabel('Reference id (optional)').fill('case-missing-tx');
      await page.getByRole('button', { name: 'Screen', exact: true }).click();

      const status = page.getByTestId('job-status');
      await status
        .getByText(`Failed: transaction ${missing} was not found on ethereum. Nothing was charged.`, { exact: true })
        .waitFor();
      await expect(page.locator('.job-result').textContent()).resolves.toContain('reference case-missing-tx');
      await expect(page.getByTestId('recent-status').first().textContent()).resolves.toBe('failed');
      await expect(page.getByTestId('risk-summary').count()).resolves.toBe(0);
      const balance = await stack.http('GET', '/api/v1/credits/balance', { key: user.key });
      expect(balance.body.data).toMatchObject({ available: 5, reserved: 0 });
      await expect(page.getByTestId('header-balance').textContent()).resolves.toBe('5');
      await saveScreenshot(page, 'screening-failed-job');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When a person without credits screens an address, then the page says there are not enough ' +
      'credits and no job is made',
    async () => {
      const user = await stack.createUser({ credits: 0 });
      const { page, pageErrors } = await openPage(browser);
      await signInWithKey(page, stack.api.url, user.key);

      await screenAddress(page, SANCTIONED);

      await expect(page.getByRole('alert').textContent()).resolves.toBe(
        'Not enough credits: this needs 1, and 0 are available. Buy a package or ask an admin for a grant.',
      );
      await expect(page.getByTestId('recent-submissions').count()).resolves.toBe(0);
      const history = await stack.http('GET', '/api/v1/activity', { key: user.key });
      expect(history.body.pagination.total).toBe(0);
      await saveScreenshot(page, 'screening-insufficient-credits');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When the address is not valid for the chain, then the page says what was expected next to the ' +
      'field, and nothing is charged',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const { page, pageErrors } = await openPage(browser);
      await signInWithKey(page, stack.api.url, user.key);

      await screenAddress(page, '0x12345');

      await expect(page.getByRole('alert').textContent()).resolves.toBe(
        'This is not a valid Ethereum address. Expected 0x followed by 40 hex characters.',
      );
      await expect(page.getByLabel('Address', { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
      await saveScreenshot(page, 'screening-invalid-address');

      // What this deployment can do on the chosen chain, from GET /api/v1/capabilities.
      await expect(page.getByTestId('chain-reach').textContent()).resolves.toMatch(
        /^On chain: KYT, exposure, clusters \(auto: /,
      );
      // A transaction on a chain without a node: the 422 in words, not a code.
      await page.getByLabel('Chain').selectOption('bitcoin');
      await expect(page.getByTestId('chain-reach').textContent()).resolves.toBe(
        'Reference data only on this deployment: lists and labels, no KYT or exposure',
      );
      await saveScreenshot(page, 'screening-chain-reach');
      await page.getByLabel('Transaction (KYT)').check();
      await page.getByLabel('Transaction id (hash)').fill('a'.repeat(64));
      await page.getByRole('button', { name: 'Screen', exact: true }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toBe(
        'KYT on bitcoin needs a bitcoin node, and none is configured on this deployment; ' +
          'KYA (address) screening is available.',
      );
      const balance = await stack.http('GET', '/api/v1/credits/balance', { key: user.key });
      expect(balance.body.data.available).toBe(5);
      expect(pageErrors).toEqual([]);
    },
  );
});
