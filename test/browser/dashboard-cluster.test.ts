import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { createClusterStore } from '../../src/entities';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const fresh = () => `0x${randomBytes(20).toString('hex')}`;
const freshTxid = () => `0x${randomBytes(32).toString('hex')}`;

let stack: TestStack;
let browser: Browser;

// Reference data only (no ETHEREUM_RPC_URL): the job completes at once and reads the cluster as Postgres holds it.
beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function screenAddress(page: Page, address: string): Promise<void> {
  await page.getByLabel('Chain').selectOption('ethereum');
  await page.getByLabel('Address (KYA)').check();
  await page.getByLabel('Address', { exact: true }).fill(address);
  await page.getByRole('button', { name: 'Screen', exact: true }).click();
  await page.getByTestId('job-status').getByText('Completed', { exact: true }).waitFor();
}

describe('dashboard: the wallet cluster beside the crawl graph', () => {
  test(
    'When a deposit address of a hot wallet on the own list is screened, then the Cluster panel beside the graph ' +
      'shows the cluster, its size, the label on the hot wallet and the sweeps that joined them, the finding says ' +
      'it came via the cluster, and the target wears its cluster halo in the graph',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      // Two deposit addresses that both swept into one hot wallet: a cluster of three, joined by two transactions.
      const [target, otherDeposit, hotWallet] = [fresh(), fresh(), fresh()];
      const [sweep, otherSweep] = [freshTxid(), freshTxid()];
      await createClusterStore(stack.pool).applyLinks('ethereum', [
        { a: target, b: hotWallet, heuristic: 'deposit_address', txid: sweep },
        { a: otherDeposit, b: hotWallet, heuristic: 'deposit_address', txid: otherSweep },
      ]);
      const label = await stack.http('POST', '/api/v1/custom-labels', {
        key: user.key,
        body: { chain: 'ethereum', address: hotWallet, category: 'ransomware', name: 'Ransom cash-out wallet' },
      });
      expect(label.status).toBe(201);
      const api = await stack.http('GET', `/api/v1/clusters/ethereum/${target}`, { key: user.key });
      const clusterId: string = api.body.data.cluster_id;
      expect(api.body.data).toMatchObject({ size: 3 });

      const { page, pageErrors } = await openPage(browser);
      await signInWithKey(page, stack.api.url, user.key);
      await screenAddress(page, target);

      const panel = page.getByTestId('cluster-panel');
      await panel.locator('[data-field=cluster-id]').getByText(clusterId, { exact: true }).waitFor();
      await expect(panel.getByRole('heading', { name: 'Cluster', exact: true }).count()).resolves.toBe(1);
      await expect(panel.locator('[data-field=size]').textContent()).resolves.toMatch(/^3 addresses/);

      const labels = panel.getByTestId('cluster-labels').locator('li');
      await expect(labels.count()).resolves.toBe(1);
      await expect(labels.locator('[data-field=category]').textContent()).resolves.toBe('ransomware');
      await expect(labels.locator('[data-field=name]').textContent()).resolves.toBe('“Ransom cash-out wallet”');
      await expect(labels.locator('[data-field=source]').textContent()).resolves.toBe('your own list');
      await expect(labels.locator('[data-field=member]').getAttribute('title')).resolves.toBe(hotWallet);
      await expect(labels.locator('[data-field=confidence]').textContent()).resolves.toMatch(/^\d+$/);

      await expect(
        panel
          .getByTestId('cluster-members')
          .locator('[title]')
          .evaluateAll((spans) => spans.map((s) => s.getAttribute('title'))),
      ).resolves.toEqual(expect.arrayContaining([target, otherDeposit, hotWallet]));

      const merges = panel.getByTestId('cluster-merges').locator('li');
      await expect(merges.count()).resolves.toBe(2);
      await expect(merges.locator('[data-field=heuristic]').allTextContents()).resolves.toEqual([
        'deposit → hot wallet',
        'deposit → hot wallet',
      ]);
      const txids = await merges
        .locator('[data-field=txid]')
        .evaluateAll((spans) => spans.map((s) => [s.getAttribute('title'), s.textContent]));
      expect(txids).toEqual(
        expect.arrayContaining([
          [sweep, `${sweep.slice(0, 10)}…${sweep.slice(-6)}`],
          [otherSweep, `${otherSweep.slice(0, 10)}…${otherSweep.slice(-6)}`],
        ]),
      );

      // The finding on the target came through the cluster: the note names it, the labelled address and the sweep.
      const via = page.getByTestId('hits').getByTestId('via-cluster');
      await expect(via.count()).resolves.toBeGreaterThan(0);
      await expect(via.first().locator('[data-field=via-cluster-id]').textContent()).resolves.toBe(clusterId);
      await expect(via.first().locator('[data-field=via-address]').textContent()).resolves.toBe(hotWallet);
      await expect(via.first().locator('[data-field=via-txid]').getAttribute('title')).resolves.toBe(sweep);

      // The graph marks the target as a member of that cluster, and the panel stands beside the graph.
      const graph = page.getByTestId('crawl-graph');
      await expect(graph.getAttribute('data-clustered')).resolves.toBe('1');
      await expect(page.getByTestId('graph-legend-cluster').textContent()).resolves.toContain(
        `Wallet cluster ${clusterId} (3 addresses`,
      );
      const [graphBox, panelBox] = await Promise.all([graph.boundingBox(), panel.boundingBox()]);
      expect(panelBox!.x).toBeGreaterThan(graphBox!.x + graphBox!.width);
      expect(panelBox!.y).toBeLessThan(graphBox!.y + graphBox!.height);

      await saveScreenshot(page, 'screening-cluster-panel');
      expect(pageErrors).toEqual([]);
    },
  );

  test(
    'When an address no transaction joined to another is screened at phone width, then the Cluster panel under ' +
      'the graph says it is not joined to any other address, and the page does not scroll sideways',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const loner = fresh();
      const { page, pageErrors } = await openPage(browser, { width: 390, height: 844 });
      await signInWithKey(page, stack.api.url, user.key);
      await screenAddress(page, loner);

      const panel = page.getByTestId('cluster-panel');
      await panel.getByText('Not joined to any other address', { exact: false }).waitFor();
      await expect(panel.getByTestId('cluster-merges').count()).resolves.toBe(0);
      await expect(page.getByTestId('hits').getByTestId('via-cluster').count()).resolves.toBe(0);
      const [graphBox, panelBox] = await Promise.all([
        page.getByTestId('crawl-graph').boundingBox(),
        panel.boundingBox(),
      ]);
      expect(panelBox!.y).toBeGreaterThan(graphBox!.y + graphBox!.height);
      await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
      await saveScreenshot(page, 'screening-cluster-panel-phone');
      expect(pageErrors).toEqual([]);
    },
  );
});
