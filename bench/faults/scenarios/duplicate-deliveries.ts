import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { loadConfig } from '../../../src/app/config';
import { createPool } from '../../../src/platform/db/pool';
import { connectTemporalClient, temporalConnectionOptions } from '../../../src/platform/temporal/temporal-connection';
import { createLogger } from '../../../src/platform/logging/logger';
import { startApiServer } from '../../../src/app/api-server';
import { completeItn, signedItn } from '../../../test/helpers/billing';
import {
  clerkDelivery,
  fixture,
  FIXTURE_CLERK_USER,
  paypalVariant,
  post,
  testPayPalVerifier,
  type Delivery,
} from '../../../test/helpers/webhooks';
import { historyEntryBody, postHistoryEntry } from '../history-webhook-sender';
import type { FaultStack } from '../fault-stack';
import { sleep, startReport, type ScenarioReport } from '../report';

const COPIES = 20;
const newClerkId = () => `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** Executions Temporal holds for a workflow id; visibility lags, so it waits for the first one. */
async function executionsOf(temporal: Client, workflowId: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    let count = 0;
    for await (const _ of temporal.workflow.list({ query: `WorkflowId = "${workflowId}"` })) count += 1;
    if (count > 0 || Date.now() > deadline) return count;
    await sleep(200);
  }
}

async function deliverCopies(url: string, route: string, delivery: Delivery): Promise<number[]> {
  const answers = await Promise.all(Array.from({ length: COPIES }, () => post(url, route, delivery)));
  return answers.map((a) => a.status);
}

const count = async (pool: Pool, sql: string, params: unknown[]) =>
  (await pool.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0;

/**
 * Twenty copies of one event sent at once to each provider's route: all acknowledged, exactly one
 * effect each (one grant, one user, one row) and one workflow. The api runs in this process here,
 * because PayPal's verifier is wired to the test PKI through its constructor; the worker is the child.
 */
export async function duplicateDeliveries(stack: FaultStack): Promise<ScenarioReport> {
  const report = startReport('20× one event');
  const config = loadConfig({ ...stack.env, PORT: '0', LOG_LEVEL: 'silent' });
  const pool = createPool(stack.env.DATABASE_URL as string, 12);
  const connection = await connectTemporalClient(
    temporalConnectionOptions(config, stack.env.TEMPORAL_ADDRESS as string),
  );
  const temporal = new Client({ connection });
  const api = await startApiServer({
    config,
    pool,
    temporal,
    log: createLogger('silent'),
    overrides: { paypalVerifier: testPayPalVerifier() },
  });
  const expectOne = (
    provider: string,
    statuses: number[],
    okStatus: number,
    effects: number,
    runs: number,
    effect: string,
  ) => {
    const acknowledged = statuses.filter((s) => s === okStatus).length;
    report.figure(provider, `${acknowledged}×${okStatus}→${effects} ${effect}${runs >= 0 ? `/${runs} run` : ''}`);
    report.require(
      acknowledged === COPIES,
      `${provider}: ${COPIES - acknowledged} copies not answered ${okStatus} (${statuses.join(',')})`,
    );
    report.require(effects === 1, `${provider}: ${effects} ${effect}s instead of 1`);
    if (runs >= 0) report.require(runs === 1, `${provider}: ${runs} workflow executions instead of 1`);
  };
  try {
    // PayPal: a subscription activation grants its package once (custom_id attaches only to a user who exists).
    const paypalUser = newClerkId();
    await stack.createUser({ clerkUserId: paypalUser });
    const activated = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', {
      subscriptionId: `I-${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`,
      clerkUserId: paypalUser,
    });
    const paypal = await deliverCopies(api.url, '/api/v1/billing/paypal/webhook', activated);
    await temporal.workflow.getHandle(`paypal:${activated.eventId}`).result();
    const paypalGrants = await count(
      pool,
      `SELECT count(*)::int AS n FROM credit_transactions t JOIN users u ON u.id = t.user_id ` +
        `WHERE u.clerk_user_id = $1 AND t.kind = 'grant'`,
      [paypalUser],
    );
    expectOne(
      'paypal',
      paypal,
      200,
      paypalGrants,
      await executionsOf(temporal, `paypal:${activated.eventId}`),
      'grant',
    );

    // PayFast: a COMPLETE ITN for a recorded checkout grants its package once.
    const buyer = await stack.createUser();
    const pkg = await stack.stores.packages.findById('pro');
    const price = pkg?.prices.find((p) => p.provider === 'payfast');
    if (!price) throw new Error('the pro package has no PayFast price');
    const mPaymentId = `faults-${randomUUID()}`;
    await pool.query(
      'INSERT INTO payfast_checkouts (m_payment_id, user_id, package_id, amount_cents, currency) ' +
        'VALUES ($1, $2, $3, $4, $5)',
      [mPaymentId, buyer.id, 'pro', price.amountCents, price.currency],
    );
    const pfPaymentId = String(Date.now());
    const itn = signedItn(
      completeItn({ mPaymentId, pfPaymentId, amount: (price.amountCents / 100).toFixed(2), customStr1: buyer.id }),
    );
    const payfast = await deliverCopies(api.url, '/api/v1/billing/payfast/webhook', {
      body: itn,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await temporal.workflow.getHandle(`payfast:${pfPaymentId}`).result();
    const payfastGrants = await count(
      pool,
      `SELECT count(*)::int AS n FROM credit_transactions WHERE user_id = $1 AND kind = 'grant'`,
      [buyer.id],
    );
    expectOne('payfast', payfast, 200, payfastGrants, await executionsOf(temporal, `payfast:${pfPaymentId}`), 'grant');

    // Clerk: one user.created (one svix-id) creates the user once.
    const clerkUser = newClerkId();
    const created = clerkDelivery(
      fixture('clerk', 'user.created.json').toString('utf8').split(FIXTURE_CLERK_USER).join(clerkUser),
    );
    const clerk = await deliverCopies(api.url, '/api/webhook/clerk', created);
    await temporal.workflow.getHandle(`clerk:${created.headers['svix-id']}`).result();
    const users = await count(pool, 'SELECT count(*)::int AS n FROM users WHERE clerk_user_id = $1', [clerkUser]);
    expectOne('clerk', clerk, 200, users, await executionsOf(temporal, `clerk:${created.headers['svix-id']}`), 'user');

    // History webhook: one entry (userId + requestId) is one row, whoever sends it how often.
    const entry = historyEntryBody(`user_faults_dup_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
    const answers = await Promise.all(Array.from({ length: COPIES }, () => postHistoryEntry(api.url, entry)));
    const rows = await count(pool, 'SELECT count(*)::int AS n FROM activity_history WHERE request_id = $1', [
      entry.requestId,
    ]);
    expectOne(
      'activity',
      answers.map((a) => a?.status ?? 0),
      201,
      rows,
      -1,
      'row',
    );
    report.require(
      new Set(answers.map((a) => a?.id)).size === 1,
      'activity: the copies were answered with different row ids',
    );
  } finally {
    await api.close();
    await connection.close();
    await pool.end();
  }
  return report.finish();
}
