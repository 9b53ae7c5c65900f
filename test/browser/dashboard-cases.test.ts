import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot, signInWithKey } from '../helpers/browser';
import { createTeam, type TestTeam } from '../helpers/teams';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { until } from '../helpers/until';

/** In the shipped OFAC list (data/risk/sanctions_ofac.csv): a KYA of it opens a HIGH sanctions case (four eyes). */
const LISTED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
/** A screening job, then the case's first trail entry, on a busy machine. */
const OPENED_WITHIN_MS = 45_000;
/** A member's action is a Temporal update answered once its trail entry is written; the socket follows at once. */
const LIVE_WITHIN_MS = 15_000;

jest.setTimeout(180_000);

let stack: TestStack;
let browser: Browser;
let team: TestTeam;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
  team = await createTeam(stack, { roles: ['admin', 'analyst', 'approver'], credits: 50 });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const member = (role: 'admin' | 'analyst' | 'approver') =>
  team.members.find((m) => m.role === role) as TestTeam['members'][number];

/** The case as the API has it now (with its trail). */
async function apiCase(id: string, key = member('analyst').key): Promise<Record<string, any>> {
  const res = await stack.http('GET', `/api/v1/cases/${id}`, { key });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function openCases(page: Page, key: string): Promise<void> {
  await signInWithKey(page, stack.api.url, key);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Cases' }).click();
  await page.getByRole('heading', { name: 'Case queue' }).waitFor();
  await page.locator('section[data-testid="case-queue-section"][aria-busy="false"]').waitFor();
}

const caseRow = (page: Page): Locator => page.getByTestId('case-row').filter({ hasText: LISTED });
const fact = (page: Page, field: string): Locator =>
  page.locator(`[data-testid="case-facts"] dd[data-field="${field}"]`);

/** Marks the page, so a later check tells a reload (the mark gone) from a live update. */
const markNotReloaded = (page: Page) =>
  page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
const notReloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

describe('dashboard: cases', () => {
  test(
    'When a KYA of an OFAC-listed address opens a four-eyes case, then analyst A takes it and proposes a false ' +
      'positive in the dashboard, approver B sees the proposal live and approves it, A cannot approve their own ' +
      'proposal, and A sees the case closed live; a refusal of the API is shown in its own words',
    async () => {
      const a = member('analyst');
      const b = member('approver');
      const admin = member('admin');

      // Arrange: the case, opened through the API by a screening job of the team.
      const job = await stack.http('POST', '/api/v1/kyt/job', {
        key: a.key,
        body: { chain: 'ethereum', address: LISTED },
      });
      expect(job.status).toBe(202);
      const opened = await until(
        'the case and its first trail entry',
        async () => {
          const r = await stack.http('GET', `/api/v1/cases?subject=${LISTED}`, { key: a.key });
          const c = r.body.data?.[0];
          return c && c.trail_length >= 1 ? c : null;
        },
        OPENED_WITHIN_MS,
      );
      expect(opened).toMatchObject({
        subject: LISTED,
        state: 'open',
        severity: 'high',
        sanctions: true,
        four_eyes: true,
        assignee_id: null,
      });
      const caseId = opened.id as string;

      // A's queue (a tab of its own that stays on the queue), A's case page and B's case page.
      const queueA = await openPage(browser);
      const pageA = await openPage(browser);
      const pageB = await openPage(browser);
      await openCases(queueA.page, a.key);
      const rowA = caseRow(queueA.page);
      await rowA.waitFor();
      await expect(rowA.getByTestId('case-state').textContent()).resolves.toBe('open');
      await expect(rowA.getByTestId('case-severity').textContent()).resolves.toBe('HIGH');
      await expect(rowA.getByTestId('four-eyes').textContent()).resolves.toBe('Four eyes');
      await expect(rowA.getByTestId('case-assignee').textContent()).resolves.toBe('nobody');
      await expect(rowA.getAttribute('data-id')).resolves.toBe(caseId);

      // The filters: "closed" hides it, "Assigned to me" too (nobody has it yet); clearing shows it again.
      await queueA.page.getByLabel('State').selectOption('closed');
      await queueA.page.getByTestId('cases-empty').filter({ hasText: 'No case matches these filters.' }).waitFor();
      await queueA.page.getByLabel('State').selectOption('');
      await queueA.page.getByLabel('Assigned to me').check();
      await queueA.page.getByTestId('cases-empty').waitFor();
      await queueA.page.getByRole('button', { name: 'Clear filters' }).click();
      await rowA.waitFor();
      await expect(queueA.page.getByTestId('case-range').textContent()).resolves.toBe('1–1 of 1');
      await queueA.page.mouse.move(0, 0);
      await saveScreenshot(queueA.page, 'cases-queue-analyst-open');
      await markNotReloaded(queueA.page);

      for (const [{ page }, key] of [
        [pageA, a.key],
        [pageB, b.key],
      ] as const) {
        await openCases(page, key);
        await caseRow(page).getByRole('link', { name: LISTED }).click();
        await page.getByTestId('case-facts').waitFor();
        expect(page.url()).toBe(`${stack.api.url}/app#/cases/${caseId}`);
        await expect(fact(page, 'subject').textContent()).resolves.toBe(LISTED);
        await expect(fact(page, 'state').getByTestId('case-state').textContent()).resolves.toBe('open');
        await expect(page.getByTestId('trail-entry').count()).resolves.toBe(1);
        await markNotReloaded(page);
      }
      await expect(pageA.page.evaluate(() => document.activeElement?.id)).resolves.toBe('case-title');
      // The first entry: the alert of the job, by the system, with the start of its hash.
      const first = (await apiCase(caseId)).trail[0];
      const entry1 = pageA.page.getByTestId('trail-entry').first();
      await expect(entry1.getByTestId('trail-what').textContent()).resolves.toBe('Alert from a screening job');
      await expect(entry1.getByTestId('trail-who').textContent()).resolves.toBe('by the system');
      await expect(entry1.getByTestId('trail-hash').textContent()).resolves.toBe(first.hash.slice(0, 12));

      // A takes it: A's page says so, B's page and A's queue follow without a reload.
      await pageA.page.getByRole('button', { name: 'Take it' }).click();
      await fact(pageA.page, 'assignee').getByText('Test analyst 1 (you)', { exact: true }).waitFor();
      expect(await apiCase(caseId)).toMatchObject({ state: 'assigned', assignee_id: a.memberId });
      await fact(pageB.page, 'assignee')
        .getByText('Test analyst 1', { exact: true })
        .waitFor({ timeout: LIVE_WITHIN_MS });
      await rowA.getByTestId('case-state').getByText('assigned', { exact: true }).waitFor({ timeout: LIVE_WITHIN_MS });
      await expect(rowA.getByTestId('case-assignee').textContent()).resolves.toBe('Test analyst 1 (you)');
      await expect(pageB.page.getByRole('button', { name: 'Take it' }).count()).resolves.toBe(1);
      await expect(pageA.page.getByRole('button', { name: 'Take it' }).count()).resolves.toBe(0);
      await pageA.page.mouse.move(0, 0);
      await saveScreenshot(pageA.page, 'cases-case-analyst-assigned');

      // A proposes a false positive with a note.
      await pageA.page.getByLabel(/^False positive/).check();
      await pageA.page.getByLabel('Note (optional)').fill('Same name, another person: passport checked');
      await pageA.page.getByRole('button', { name: 'Propose' }).click();
      await pageA.page
        .getByTestId('case-done')
        .getByText('You proposed false positive: an approver other than you decides.')
        .waitFor();
      await fact(pageA.page, 'state').getByText('proposed', { exact: true }).waitFor();
      const proposed = await apiCase(caseId);
      expect(proposed).toMatchObject({
        state: 'proposed',
        proposal: {
          disposition: 'false_positive',
          note: 'Same name, another person: passport checked',
          proposed_by: a.memberId,
        },
      });

      // A may not approve their own proposal: the controls are there but disabled, with why; the API agrees (403).
      const approveA = pageA.page.getByTestId('case-decide').getByRole('button', { name: 'Approve' });
      await expect(approveA.isDisabled()).resolves.toBe(true);
      await expect(
        pageA.page.getByTestId('case-decide').getByRole('button', { name: 'Reject' }).isDisabled(),
      ).resolves.toBe(true);
      await expect(pageA.page.getByTestId('case-decide-bar').textContent()).resolves.toBe(
        'Four eyes: you proposed this, so an approver other than you approves or rejects it.',
      );
      const own = await stack.http('POST', `/api/v1/cases/${caseId}/approve`, { key: a.key, body: {} });
      expect(own.status).toBe(403);
      expect(own.body).toMatchObject({ success: false, code: 'CASE_ACTION_FORBIDDEN' });

      // B's page shows the proposal live, with Approve and Reject enabled for B.
      const proposalB = pageB.page.getByTestId('case-proposal');
      await proposalB.waitFor({ timeout: LIVE_WITHIN_MS });
      await expect(proposalB.textContent()).resolves.toBe(
        'False positive, proposed by Test analyst 1: “Same name, another person: passport checked”',
      );
      const approveB = pageB.page.getByTestId('case-decide').getByRole('button', { name: 'Approve' });
      await expect(approveB.isEnabled()).resolves.toBe(true);
      await expect(pageB.page.getByTestId('case-decide-bar').count()).resolves.toBe(0);
      await rowA.getByTestId('case-state').getByText('proposed', { exact: true }).waitFor({ timeout: LIVE_WITHIN_MS });
      await expect(
        pageB.page.getByTestId('trail-entry').evaluateAll((items) => items.map((i) => i.getAttribute('data-seq'))),
      ).resolves.toEqual(['1', '2', '3']);
      await pageA.page.mouse.move(0, 0);
      await saveScreenshot(pageA.page, 'cases-case-analyst-proposed');
      await pageB.page.mouse.move(0, 0);
      await saveScreenshot(pageB.page, 'cases-case-approver-proposal');
      await saveScreenshot(queueA.page, 'cases-queue-analyst-proposed');

      // A refusal the page could not foresee (B's role was changed to analyst by an admin meanwhile) is shown in the
      // API's own words, and nothing changes.
      const demote = await stack.http('PUT', `/api/v1/team/members/${b.memberId}`, {
        key: admin.key,
        body: { role: 'analyst' },
      });
      expect(demote.status).toBe(200);
      await approveB.click();
      const refusal = pageB.page.getByTestId('case-refusal').getByRole('alert');
      await refusal.waitFor();
      const refused = await stack.http('POST', `/api/v1/cases/${caseId}/approve`, { key: b.key, body: {} });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: false, code: 'CASE_ACTION_FORBIDDEN' });
      expect(typeof refused.body.error).toBe('string');
      await expect(refusal.textContent()).resolves.toContain(refused.body.error);
      await expect(pageB.page.locator('body').textContent()).resolves.not.toContain('{"');
      expect(await apiCase(caseId)).toMatchObject({ state: 'proposed', trail_length: 3 });
      await saveScreenshot(pageB.page, 'cases-case-approver-refused');

      // B is an approver again and approves: B's page and A's page and queue show the case closed, live.
      const restore = await stack.http('PUT', `/api/v1/team/members/${b.memberId}`, {
        key: admin.key,
        body: { role: 'approver' },
      });
      expect(restore.status).toBe(200);
      await pageB.page.getByLabel('Note (optional)').fill('Agreed: documents match');
      await approveB.click();
      await pageB.page.getByTestId('case-done').getByText('You approved false positive: the case is closed.').waitFor();
      await expect(pageB.page.getByTestId('case-refusal').getByRole('alert').count()).resolves.toBe(0);
      const closed = await apiCase(caseId);
      expect(closed).toMatchObject({
        state: 'closed',
        disposition: 'false_positive',
        decided_by: b.memberId,
        proposal: null,
        trail_length: 4,
      });
      expect(closed.trail.map((e: { action: string }) => e.action)).toEqual(['alert', 'assign', 'propose', 'approve']);

      await fact(pageA.page, 'state').getByText('closed', { exact: true }).waitFor({ timeout: LIVE_WITHIN_MS });
      await expect(fact(pageA.page, 'disposition').textContent()).resolves.toMatch(
        /^False positive, decided by Test approver 2 on \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
      );
      await expect(pageA.page.getByTestId('case-decide').count()).resolves.toBe(0);
      await pageA.page.getByRole('button', { name: 'Reopen' }).waitFor();
      // What A did last is no longer said once the case moved on without A.
      await expect(pageA.page.getByTestId('case-done').textContent()).resolves.toBe('');
      // The trail on A's page is the API's: who, what, and the start of each hash.
      const shown = await pageA.page.getByTestId('trail-entry').evaluateAll((items) =>
        items.map((i) => ({
          seq: i.getAttribute('data-seq'),
          what: i.querySelector('[data-testid="trail-what"]')?.textContent,
          who: i.querySelector('[data-testid="trail-who"]')?.textContent,
          hash: i.querySelector('[data-testid="trail-hash"]')?.textContent,
        })),
      );
      expect(shown).toEqual([
        { seq: '1', what: 'Alert from a screening job', who: 'by the system', hash: closed.trail[0].hash.slice(0, 12) },
        {
          seq: '2',
          what: 'Assigned to Test analyst 1 (you)',
          who: 'by Test analyst 1 (you), analyst',
          hash: closed.trail[1].hash.slice(0, 12),
        },
        {
          seq: '3',
          what: 'Proposed false positive',
          who: 'by Test analyst 1 (you), analyst',
          hash: closed.trail[2].hash.slice(0, 12),
        },
        {
          seq: '4',
          what: 'Approved false positive',
          who: 'by Test approver 2, approver',
          hash: closed.trail[3].hash.slice(0, 12),
        },
      ]);
      await expect(pageA.page.getByTestId('case-alert').count()).resolves.toBeGreaterThanOrEqual(1);
      await rowA.getByTestId('case-state').getByText('closed', { exact: true }).waitFor({ timeout: LIVE_WITHIN_MS });

      for (const page of [queueA.page, pageA.page, pageB.page]) await expect(notReloaded(page)).resolves.toBe(true);
      await pageA.page.mouse.move(0, 0);
      await saveScreenshot(pageA.page, 'cases-case-analyst-closed');
      await saveScreenshot(pageB.page, 'cases-case-approver-closed');
      await saveScreenshot(queueA.page, 'cases-queue-analyst-closed');

      // The case file downloads with the member's credential: a PDF, the bytes the API serves.
      const [download] = await Promise.all([
        pageA.page.waitForEvent('download'),
        pageA.page.getByRole('button', { name: 'Download the case file (PDF)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`case-${closed.id}.pdf`);
      const pdf = await readFile((await download.path()) as string);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.length).toBeGreaterThan(1000);

      // B's queue, reached from the case page by its link: the closed case, decided.
      await pageB.page.getByRole('link', { name: '← Back to the queue' }).click();
      const rowB = caseRow(pageB.page);
      await rowB.waitFor();
      await expect(rowB.getByTestId('case-state').textContent()).resolves.toBe('closed');
      await pageB.page.mouse.move(0, 0);
      await saveScreenshot(pageB.page, 'cases-queue-approver-closed');

      // At phone width neither the queue nor the case page scrolls sideways (the table scrolls in its own box).
      for (const page of [pageA.page, pageB.page]) {
        await page.setViewportSize({ width: 390, height: 844 });
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      }
      await saveScreenshot(pageA.page, 'cases-case-analyst-phone');
      await saveScreenshot(pageB.page, 'cases-queue-approver-phone');

      expect([...queueA.pageErrors, ...pageA.pageErrors, ...pageB.pageErrors]).toEqual([]);
    },
  );
});
