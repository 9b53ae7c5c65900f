/**
 * The worker trusts nothing Temporal hands it (issue 28, item 2): whoever reaches the Temporal frontend can start the
 * payment and identity workflows with any input. Each of paypalEventWorkflow, payfastPaymentWorkflow,
 * payfastRefundWorkflow and clerkEventWorkflow is started here by hand, through the Temporal client on the stack's
 * task queue, with forged inputs (made-up events, bad signatures, a genuine signed delivery whose parsed copy was
 * tampered with): each fails with its code, and nothing changed: balances, the credit ledger, holds, subscriptions,
 * credited payments and refunds, users and their keys, and the webhook inbox (so the genuine event stays free).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { Webhook } from 'svix';
import { parseItn, itnParamStringForValidation } from '../../src/billing/payfast/itn';
import { readPayFastPayment } from '../../src/billing/payfast/itn-payment';
import { parsePayPalEvent } from '../../src/billing/paypal/paypal-event';
import { paypalTransmissionHeaders } from '../../src/billing/paypal/signature';
import { paypalWorkflowId } from '../../src/billing/workflow-ids';
import type {
  PayFastItn,
  PayFastPaymentInput,
  PayFastRefundInput,
  PayPalEventInput,
} from '../../src/billing/workflow-types';
import type { ClerkEventInput } from '../../src/identity/workflow-types';
import { failureCode } from '../../src/platform/errors/temporal-failures';
import { balanceOf, completeItn, processedEvent, signedItn } from '../helpers/billing';
import { newClerkUserId } from '../helpers/paypal-plan-change-scenario';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import {
  clerkDelivery,
  fixture,
  FIXTURE_CLERK_USER,
  paypalVariant,
  post,
  testPayPalVerifier,
  WEBHOOK_ENV,
} from '../helpers/webhooks';

const PAYPAL = '/api/v1/billing/paypal/webhook';
const PAYFAST = '/api/v1/billing/payfast/webhook';
const newPfPaymentId = () => `${Date.now() % 1e9}${Math.floor(Math.random() * 1e6)}`;

describe('provider workflows started by hand with forged inputs', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: WEBHOOK_ENV, verifiers: { paypalVerifier: testPayPalVerifier() } });
  });
  afterAll(async () => stack.stop());

  /** Starts a workflow on the stack's task queue as anyone on the frontend could, and waits for its end. */
  async function startByHand(
    workflowType: string,
    workflowId: string,
    input: unknown,
  ): Promise<{ failed: boolean; code?: string; message?: string }> {
    const handle = await stack.temporal.workflow.start(workflowType, {
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      workflowId,
      args: [input],
    });
    try {
      await handle.result();
      return { failed: false };
    } catch (err) {
      if (!(err instanceof WorkflowFailedError)) throw err;
      // The activity's failure, and under it the ApplicationFailure the worker raised.
      const cause = err.cause as (Error & { cause?: Error }) | undefined;
      return { failed: true, code: failureCode(err.cause), message: cause?.cause?.message ?? cause?.message };
    }
  }

  /** Everything a payment or identity event could change for this user, and the inbox rows of these events. */
  async function traces(userId: string, inbox: { provider: string; eventId: string }[]) {
    const q = async (sql: string, params: unknown[]) => (await stack.pool.query(sql, params)).rows;
    return {
      account: await q('SELECT balance, reserved, debt FROM credit_accounts WHERE user_id = $1', [userId]),
      ledger: await q('SELECT id, kind, amount FROM credit_transactions WHERE user_id = $1 ORDER BY id', [userId]),
      holds: await q('SELECT hold_key, amount FROM credit_holds WHERE user_id = $1 ORDER BY hold_key', [userId]),
      subscriptions: await q(
        'SELECT subscription_id, status, plan_id, package_id, sales_credited, advance_unsettled, cancelled_at, ' +
          'updated_at FROM subscriptions WHERE user_id = $1 ORDER BY subscription_id',
        [userId],
      ),
      payments: await q(
        'SELECT payment_id, credits, refunded_cents, credits_revoked FROM credited_payments WHERE user_id = $1 ' +
          'ORDER BY payment_id',
        [userId],
      ),
      refunds: await q(
        'SELECT r.refund_id FROM payment_refunds r JOIN credited_payments p ' +
          'ON p.provider = r.provider AND p.payment_id = r.payment_id WHERE p.user_id = $1',
        [userId],
      ),
      user: await q('SELECT status, deleted_at, email, display_name, updated_at FROM users WHERE id = $1', [userId]),
      keys: await q('SELECT id, revoked_at FROM api_keys WHERE user_id = $1 ORDER BY id', [userId]),
      inbox: await q('SELECT provider, event_id, outcome FROM webhook_events WHERE event_id = ANY($1)', [
        inbox.map((e) => e.eventId),
      ]),
    };
  }

  describe('paypalEventWorkflow', () => {
    /** A signed-up subscriber whose basic subscription PayPal activated (through the route): 100 credits. */
    async function subscriber() {
      const clerkUserId = newClerkUserId();
      const user = await stack.createUser({ clerkUserId });
      const subscriptionId = `I-${randomUUID().slice(0, 12).toUpperCase()}`;
      const activated = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', { subscriptionId, clerkUserId });
      expect((await post(stack.api.url, PAYPAL, activated)).status).toBe(200);
      expect(await processedEvent(stack, 'paypal', activated.eventId)).toMatchObject({ credits: 100 });
      return { user, clerkUserId, subscriptionId };
    }

    /** A sale of `total` on the subscription, signed with the test PayPal key (genuine in this test's PKI). */
    const signedSale = (s: { subscriptionId: string; clerkUserId: string }, total: string) =>
      paypalVariant('PAYMENT.SALE.COMPLETED', {
        ...s,
        mutate: (body) => {
          body.resource.id = `S${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`;
          body.resource.amount.total = total;
          body.resource.amount.details.subtotal = total;
        },
      });
    const eventOf = (delivery: { body: Buffer }) => parsePayPalEvent(JSON.parse(delivery.body.toString('utf8')));
    const inputOf = (delivery: { body: Buffer; headers: Record<string, string> }): PayPalEventInput => ({
      event: eventOf(delivery),
      delivery: { rawBody: delivery.body.toString('base64'), headers: paypalTransmissionHeaders(delivery.headers) },
      unknownSubscriptionRetryMs: 50,
    });

    test(
      'when made-up sales and a made-up cancellation are started (no delivery, a forged signature, a signed ' +
        'body changed after signing), then each fails PAYPAL_EVENT_NOT_AUTHENTIC and nothing changes',
      async () => {
        const s = await subscriber();
        const proSale = signedSale(s, '19.99');
        const cancelled = paypalVariant('BILLING.SUBSCRIPTION.CANCELLED', s);
        const genuine = signedSale(s, '9.99');
        const changedBody = Buffer.from(genuine.body.toString('utf8').replace('"9.99"', '"19.99"'));
        const forgeries: [string, string, PayPalEventInput][] = [
          [
            'a made-up sale with no delivery (the shape of a workflow started before deliveries were carried)',
            proSale.eventId,
            { event: eventOf(proSale), unknownSubscriptionRetryMs: 50 },
          ],
          [
            'a made-up cancellation with no delivery',
            cancelled.eventId,
            { event: eventOf(cancelled), unknownSubscriptionRetryMs: 50 },
          ],
          [
            'a made-up sale with a signature by another key',
            proSale.eventId,
            {
              ...inputOf(proSale),
              delivery: {
                rawBody: proSale.body.toString('base64'),
                headers: {
                  ...paypalTransmissionHeaders(proSale.headers),
                  'paypal-transmission-sig': randomBytes(256).toString('base64'),
                },
              },
            },
          ],
          [
            'a signed $9.99 sale whose body was changed to $19.99 after signing',
            genuine.eventId,
            {
              event: parsePayPalEvent(JSON.parse(changedBody.toString('utf8'))),
              delivery: {
                rawBody: changedBody.toString('base64'),
                headers: paypalTransmissionHeaders(genuine.headers),
              },
              unknownSubscriptionRetryMs: 50,
            },
          ],
        ];
        const events = forgeries.map(([, eventId]) => ({ provider: 'paypal', eventId }));
        const before = await traces(s.user.id, events);

        for (const [name, eventId, input] of forgeries) {
          const outcome = await startByHand(
            'paypalEventWorkflow',
            `${paypalWorkflowId(eventId)}:${randomUUID()}`,
            input,
          );
          expect([name, outcome.failed, outcome.code]).toEqual([name, true, 'PAYPAL_EVENT_NOT_AUTHENTIC']);
        }

        expect(await traces(s.user.id, events)).toEqual(before);
        expect(before.account).toEqual([{ balance: 100, reserved: 0, debt: 0 }]);
        expect(before.subscriptions).toMatchObject([{ status: 'ACTIVE', package_id: 'basic', cancelled_at: null }]);
      },
    );

    test.each([
      ['the amount ($9.99 → $19.99: the pro plan, 500 credits)', (e: any) => (e.sale.total = '19.99')],
      ['the sale id (a second grant for one payment)', (e: any) => (e.sale.saleId = `${e.sale.saleId}-2`)],
      ['the subscription (another account’s)', (e: any) => (e.sale.subscriptionId = 'I-SOMEONE-ELSES')],
    ])(
      'when a genuine signed sale is started with its parsed event tampered (%s), then it fails ' +
        'PAYPAL_EVENT_NOT_AUTHENTIC, nothing changes, and PayPal’s own delivery of it still applies afterwards',
      async (_name, tamper) => {
        const s = await subscriber();
        const genuine = signedSale(s, '9.99');
        const input = inputOf(genuine);
        const event = structuredClone(input.event);
        tamper(event);
        const events = [{ provider: 'paypal', eventId: genuine.eventId }];
        const before = await traces(s.user.id, events);

        // The workflow id the api would use: its failure leaves the id free for PayPal's delivery.
        const outcome = await startByHand('paypalEventWorkflow', paypalWorkflowId(genuine.eventId), {
          ...input,
          event,
        });

        expect([outcome.failed, outcome.code]).toEqual([true, 'PAYPAL_EVENT_NOT_AUTHENTIC']);
        expect(outcome.message).toMatch(/another event than its signed body/);
        expect(await traces(s.user.id, events)).toEqual(before);
        expect(before.inbox).toEqual([]);

        // The untampered delivery through the route: the event was never claimed, so it is applied now (the sale
        // settles the activation's advance: logged, no new credits).
        expect((await post(stack.api.url, PAYPAL, genuine)).status).toBe(200);
        expect(await processedEvent(stack, 'paypal', genuine.eventId)).toMatchObject({ outcome: 'logged', credits: 0 });
        expect(await balanceOf(stack, s.user.id)).toBe(100);
      },
    );
  });

  describe('payfastPaymentWorkflow', () => {
    /** A buyer with a PayFast checkout for the pro package, and the ITN PayFast would sign for it. */
    async function checkout() {
      const buyer = await stack.createUser();
      const pkg = (await stack.stores.packages.findById('pro'))!;
      const price = pkg.prices.find((p) => p.provider === 'payfast')!;
      const mPaymentId = `chk-${randomUUID()}`;
      await stack.pool.query(
        'INSERT INTO payfast_checkouts (m_payment_id, user_id, package_id, amount_cents, currency) ' +
          'VALUES ($1, $2, $3, $4, $5)',
        [mPaymentId, buyer.id, 'pro', price.amountCents, price.currency],
      );
      const pfPaymentId = newPfPaymentId();
      const amount = (price.amountCents / 100).toFixed(2);
      const raw = signedItn(completeItn({ mPaymentId, pfPaymentId, amount, customStr1: buyer.id }));
      // The input exactly as the route builds it.
      const input: PayFastPaymentInput = {
        itn: readPayFastPayment(parseItn(raw).fields) as PayFastItn,
        validationParamString: itnParamStringForValidation(raw),
      };
      return { buyer, pfPaymentId, input, raw };
    }

    test(
      'when a made-up ITN, a signed ITN with another amount or buyer in the input, or a signed ITN whose ' +
        'parameters were changed are started, then each fails ITN_NOT_AUTHENTIC and nothing changes; the ' +
        'genuine ITN still applies afterwards',
      async () => {
        const c = await checkout();
        const forgeries: [string, PayFastPaymentInput][] = [
          [
            'a made-up ITN',
            {
              itn: { ...c.input.itn, fields: { ...c.input.itn.fields, signature: 'f'.repeat(32) } },
              validationParamString: c.input.validationParamString,
            },
          ],
          ['another amount in the input', { ...c.input, itn: { ...c.input.itn, amountGross: '9999.00' } }],
          ['another buyer in the input', { ...c.input, itn: { ...c.input.itn, customStr1: randomUUID() } }],
          [
            'parameters changed after signing',
            {
              ...c.input,
              validationParamString: c.input.validationParamString.replace(
                /amount_gross=[^&]*/,
                'amount_gross=9999.00',
              ),
            },
          ],
        ];
        const events = [{ provider: 'payfast', eventId: c.pfPaymentId }];
        const before = await traces(c.buyer.id, events);

        for (const [name, input] of forgeries) {
          const outcome = await startByHand(
            'payfastPaymentWorkflow',
            `payfast:${c.pfPaymentId}:${randomUUID()}`,
            input,
          );
          expect([name, outcome.failed, outcome.code]).toEqual([name, true, 'ITN_NOT_AUTHENTIC']);
        }

        expect(await traces(c.buyer.id, events)).toEqual(before);
        expect([before.account, before.ledger, before.inbox]).toEqual([[], [], []]);
        expect(
          (
            await post(stack.api.url, PAYFAST, {
              body: c.raw,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
            })
          ).status,
        ).toBe(200);
        expect(await processedEvent(stack, 'payfast', c.pfPaymentId)).toMatchObject({
          outcome: 'granted',
          credits: 500,
        });
      },
    );
  });

  describe('payfastRefundWorkflow', () => {
    test(
      'when refunds the api never recorded, or a recorded refund with a larger amount or another payment, are ' +
        'started, then each fails REFUND_NOT_RECORDED and nothing is taken back',
      async () => {
        // A buyer with two credited PayFast payments (through the route), and a refund of R1.00 the api recorded.
        const buyer = await stack.createUser();
        const paid: string[] = [];
        for (let i = 0; i < 2; i++) {
          const pkg = (await stack.stores.packages.findById('pro'))!;
          const price = pkg.prices.find((p) => p.provider === 'payfast')!;
          const mPaymentId = `chk-${randomUUID()}`;
          await stack.pool.query(
            'INSERT INTO payfast_checkouts (m_payment_id, user_id, package_id, amount_cents, currency) ' +
              'VALUES ($1, $2, $3, $4, $5)',
            [mPaymentId, buyer.id, 'pro', price.amountCents, price.currency],
          );
          const pfPaymentId = newPfPaymentId();
          const amount = (price.amountCents / 100).toFixed(2);
          await post(stack.api.url, PAYFAST, {
            body: signedItn(completeItn({ mPaymentId, pfPaymentId, amount, customStr1: buyer.id })),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
          expect(await processedEvent(stack, 'payfast', pfPaymentId)).toMatchObject({ outcome: 'granted' });
          paid.push(pfPaymentId);
        }
        const [first, second] = paid as [string, string];
        const recordedId = `rf-${randomUUID()}`;
        await stack.stores.payfastRefundRecords.record({
          refundId: recordedId,
          pfPaymentId: first,
          amountCents: 100,
          reason: null,
          recordedBy: buyer.id,
        });
        const forgeries: [string, PayFastRefundInput][] = [
          [
            'a refund never recorded',
            { refundId: `rf-${randomUUID()}`, pfPaymentId: first, amountCents: null, reason: 'x', recordedBy: 'x' },
          ],
          [
            'the recorded refund with the whole payment',
            { refundId: recordedId, pfPaymentId: first, amountCents: null, reason: null, recordedBy: buyer.id },
          ],
          [
            'the recorded refund with a larger amount',
            { refundId: recordedId, pfPaymentId: first, amountCents: 19_900, reason: null, recordedBy: buyer.id },
          ],
          [
            'the recorded refund against another payment',
            { refundId: recordedId, pfPaymentId: second, amountCents: 100, reason: null, recordedBy: buyer.id },
          ],
        ];
        const events = forgeries.map(([, r]) => ({ provider: 'payfast', eventId: `refund:${r.refundId}` }));
        const before = await traces(buyer.id, events);

        for (const [name, input] of forgeries) {
          const outcome = await startByHand('payfastRefundWorkflow', `payfast-refund:${randomUUID()}`, input);
          expect([name, outcome.failed, outcome.code]).toEqual([name, true, 'REFUND_NOT_RECORDED']);
        }

        expect(await traces(buyer.id, events)).toEqual(before);
        expect([before.refunds, before.inbox]).toEqual([[], []]);
        expect(await balanceOf(stack, buyer.id)).toBe(1000);
      },
    );
  });

  describe('clerkEventWorkflow', () => {
    const clerkBody = (name: string, clerkUserId: string) => {
      const event = JSON.parse(
        fixture('clerk', `${name}.json`).toString('utf8').split(FIXTURE_CLERK_USER).join(clerkUserId),
      );
      if (name === 'user.deleted') event.data.id = clerkUserId;
      return JSON.stringify(event);
    };
    const inputOf = (delivery: { body: Buffer; headers: Record<string, string> }): ClerkEventInput => ({
      svixId: delivery.headers['svix-id'] as string,
      deliveredAtMs: Number(delivery.headers['svix-timestamp']) * 1000,
      event: JSON.parse(delivery.body.toString('utf8')),
      delivery: {
        rawBody: delivery.body.toString('base64'),
        headers: {
          'svix-id': delivery.headers['svix-id'] as string,
          'svix-timestamp': delivery.headers['svix-timestamp'] as string,
          'svix-signature': delivery.headers['svix-signature'] as string,
        },
      },
    });

    test(
      'when a user.deleted for someone else is started (no delivery, another secret’s signature, a signed ' +
        'user.updated relabelled deleted, a signed deletion of the forger’s own account aimed at the victim), then ' +
        'each fails CLERK_EVENT_NOT_AUTHENTIC: the victim stays active with its keys, credits and holds',
      async () => {
        const clerkUserId = newClerkUserId();
        const victim = await stack.createUser({ clerkUserId, credits: 7 });
        await stack.stores.credits.reserve(victim.id, `held-${randomUUID()}`, 2, 2);
        const deleted = clerkDelivery(clerkBody('user.deleted', clerkUserId));
        const updated = clerkDelivery(clerkBody('user.updated', clerkUserId));
        const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;
        const id = `msg_${randomUUID().replace(/-/g, '')}`;
        const at = new Date();
        const ownDeletion = clerkDelivery(clerkBody('user.deleted', newClerkUserId()));
        const forgeries: [string, ClerkEventInput][] = [
          ['no delivery', { ...inputOf(deleted), delivery: undefined }],
          [
            'another secret’s signature',
            {
              ...inputOf(deleted),
              svixId: id,
              deliveredAtMs: Math.floor(at.getTime() / 1000) * 1000,
              delivery: {
                rawBody: deleted.body.toString('base64'),
                headers: {
                  'svix-id': id,
                  'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
                  'svix-signature': new Webhook(otherSecret).sign(id, at, deleted.body),
                },
              },
            },
          ],
          [
            'a signed user.updated relabelled user.deleted',
            { ...inputOf(updated), event: { ...inputOf(updated).event, type: 'user.deleted' } },
          ],
          [
            'a signed deletion of another account aimed at the victim',
            { ...inputOf(ownDeletion), event: inputOf(deleted).event },
          ],
        ];
        const events = forgeries.map(([, input]) => ({ provider: 'clerk', eventId: input.svixId }));
        const before = await traces(victim.id, events);

        for (const [name, input] of forgeries) {
          const outcome = await startByHand('clerkEventWorkflow', `clerk:${input.svixId}:${randomUUID()}`, input);
          expect([name, outcome.failed, outcome.code]).toEqual([name, true, 'CLERK_EVENT_NOT_AUTHENTIC']);
        }

        expect(await traces(victim.id, events)).toEqual(before);
        expect(before.user).toMatchObject([{ status: 'active', deleted_at: null }]);
        expect(before.account).toEqual([{ balance: 7, reserved: 2, debt: 0 }]);
        expect((await stack.http('GET', '/api/v1/me', { key: victim.key })).status).toBe(200);
      },
    );

    test(
      'when a genuine delivery is retried by the worker an hour after Clerk signed it, then it still applies ' +
        '(freshness is the api’s check, not the worker’s)',
      async () => {
        const clerkUserId = newClerkUserId();
        const hourAgo = Date.now() - 3_600_000;
        const created = clerkDelivery(clerkBody('user.created', clerkUserId), { atMs: hourAgo });
        const input = inputOf(created);

        const outcome = await startByHand('clerkEventWorkflow', `clerk:${input.svixId}`, input);

        expect(outcome).toEqual({ failed: false });
        expect(await processedEvent(stack, 'clerk', input.svixId)).toMatchObject({ outcome: 'applied' });
        expect((await stack.stores.users.findByAnyId(clerkUserId))?.status).toBe('active');
      },
    );
  });
});
