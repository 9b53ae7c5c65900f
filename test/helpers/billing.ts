import { createHash } from 'node:crypto';
import type { TestStack } from './test-stack';
import { generateApiKey } from '../../src/identity/api-key-format';
import { phpUrlencode } from '../../src/billing/payfast/php-urlencode';
import { FIXTURE_CLERK_USER, PAYFAST_PASSPHRASE } from './webhooks';

/** The user the constructed fixtures name (custom_id / custom_str1), created once per run and reused. */
export async function fixtureUser(stack: TestStack): Promise<{ id: string; key: string }> {
  const existing = await stack.stores.users.findByAnyId(FIXTURE_CLERK_USER);
  if (existing) {
    const key = generateApiKey();
    await stack.stores.users.createApiKey(existing.id, 'test', key);
    return { id: existing.id, key };
  }
  return stack.createUser({ clerkUserId: FIXTURE_CLERK_USER });
}

export async function balanceOf(stack: TestStack, userId: string): Promise<number> {
  return (await stack.stores.credits.balance(userId)).balance;
}

/** Waits until the inbox holds an outcome for the event (the workflow ran), returning the row. */
export async function processedEvent(
  stack: TestStack,
  provider: string,
  eventId: string,
  timeoutMs = 20_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await stack.pool.query('SELECT * FROM webhook_events WHERE provider = $1 AND event_id = $2', [
      provider,
      eventId,
    ]);
    if (rows[0] || Date.now() > deadline) return rows[0] ?? null;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Builds an ITN the way PayFast does: fields in order, PHP urlencode, MD5 with the passphrase appended. */
export function signedItn(fields: [string, string][], passphrase = PAYFAST_PASSPHRASE): Buffer {
  const body = fields.map(([k, v]) => `${k}=${phpUrlencode(v)}`).join('&');
  const signature = createHash('md5')
    .update(`${body}&passphrase=${phpUrlencode(passphrase)}`)
    .digest('hex');
  return Buffer.from(`${body}&signature=${signature}`);
}

/** A COMPLETE ITN for a checkout, in PayFast's field order. */
export function completeItn(o: {
  mPaymentId: string;
  pfPaymentId: string;
  amount: string;
  customStr1: string;
  status?: string;
  merchantId?: string;
}): [string, string][] {
  return [
    ['m_payment_id', o.mPaymentId],
    ['pf_payment_id', o.pfPaymentId],
    ['payment_status', o.status ?? 'COMPLETE'],
    ['item_name', 'Pro (500 credits)'],
    ['item_description', ''],
    ['amount_gross', o.amount],
    ['amount_fee', '-4.58'],
    ['amount_net', '194.42'],
    ['custom_str1', o.customStr1],
    ['custom_str2', ''],
    ['custom_str3', ''],
    ['custom_str4', ''],
    ['custom_str5', ''],
    ['custom_int1', ''],
    ['custom_int2', ''],
    ['custom_int3', ''],
    ['custom_int4', ''],
    ['custom_int5', ''],
    ['name_first', 'Test'],
    ['name_last', 'User'],
    ['email_address', 'buyer@example.com'],
    ['merchant_id', o.merchantId ?? '10000100'],
  ];
}

/**
 * Lists the executions Temporal holds for a workflow id (visibility is eventually consistent: waits for `expected`).
 */
export async function executionsOf(
  stack: TestStack,
  workflowId: string,
  expected = 1,
  timeoutMs = 10_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let count = 0;
    for await (const _ of stack.temporal.workflow.list({ query: `WorkflowId = "${workflowId}"` })) count += 1;
    if (count >= expected || Date.now() > deadline) return count;
    await new Promise((r) => setTimeout(r, 200));
  }
}
