import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPayFastServerValidator } from '../../src/billing/payfast/server-validation';
import { itnParamStringForValidation, parseItn } from '../../src/billing/payfast/itn';
import { readPayFastPayment } from '../../src/billing/payfast/itn-payment';
import { payfastWorkflowId } from '../../src/billing/workflow-ids';
import { balanceOf, completeItn, executionsOf, fixtureUser, processedEvent, signedItn } from '../helpers/billing';
import { connectRecording } from '../helpers/realtime-client';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { fixture, payfastFixture, post, WEBHOOK_ENV } from '../helpers/webhooks';

const ROUTE = '/api/v1/billing/payfast/webhook';
const form = (body: Buffer) => ({ body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
let uniq = 0;
const pfId = () => {
  uniq += 1;
  return `${Date.now() % 1e9}${uniq}`;
};

/** A checkout for `packageId` owned by `userId`, the way POST /billing/payfast/checkout records it. */
async function checkout(stack: TestStack, userId: string, packageId = 'pro', mPaymentId = `chk-${pfId()}`) {
  const pkg = await stack.stores.packages.findById(packageId);
  const price = pkg!.prices.find((p) => p.provider === 'payfast')!;
  await stack.pool.query(
    'INSERT INTO payfast_checkouts (m_payment_id, user_id, package_id, amount_cents, currency) VALUES ($1, $2, $3, ' +
      '$4, $5) ON CONFLICT DO NOTHING',
    [mPaymentId, userId, packageId, price.amountCents, price.currency],
  );
  return { mPaymentId, credits: pkg!.credits, amount: (price.amountCents / 100).toFixed(2) };
}

describe('PayFast ITN webhook', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: WEBHOOK_ENV });
  });
  afterAll(async () => stack.stop());

  test(
    "when a signed COMPLETE arrives for a package, then the balance rises by the package's credits and only " +
      "that user's socket hears both events",
    async () => {
      // Arrange
      const buyer = await stack.createUser({ clerkUserId: `user_${'b'.repeat(20)}${pfId()}` });
      const other = await stack.createUser();
      const { mPaymentId, credits, amount } = await checkout(stack, buyer.id, 'pro');
      const buyerSocket = await connectRecording(stack.api.url, buyer.key);
      const otherSocket = await connectRecording(stack.api.url, other.key);
      const pf = pfId();

      // Act
      const res = await post(
        stack.api.url,
        ROUTE,
        form(
          signedItn(
            completeItn({
              mPaymentId,
              pfPaymentId: pf,
              amount,
              customStr1: `user_${'b'.repeat(20)}${pf.slice(0, 0)}`,
            }).map(([k, v]) => [k, k === 'custom_str1' ? '' : v]),
          ),
        ),
      );
      const granted = await buyerSocket.waitFor('credits_granted', (p) => p.eventId === pf);
      const updated = await buyerSocket.waitFor('credit_balance_updated', (p) => p.delta === credits);
      await new Promise((r) => setTimeout(r, 500));

      // Assert
      expect(res.status).toBe(200);
      expect(res.text).toBe('OK');
      expect(await balanceOf(stack, buyer.id)).toBe(credits);
      expect(granted).toEqual({
        transactionId: expect.any(String),
        amount: credits,
        balance: credits,
        source: 'payfast',
        eventId: pf,
        grantedAt: expect.stringMatching(/Z$/),
      });
      expect(updated).toEqual({ balance: credits, delta: credits, reason: expect.stringContaining('PayFast payment') });
      expect(otherSocket.received).toEqual([]);
      buyerSocket.close();
      otherSocket.close();
    },
  );

  test(
    'when the fixture ITNs (initial, recurring, failed, cancelled, special characters) arrive, ' +
      'then COMPLETEs grant their package and the others change nothing',
    async () => {
      // Arrange: the fixtures' checkouts, owned by the fixture user.
      const user = await fixtureUser(stack);
      const pro = await checkout(stack, user.id, 'pro', 'sub_7f3c2a1e-initial');
      const annual = await checkout(stack, user.id, 'pro-annual', 'ord_0042');
      const before = await balanceOf(stack, user.id);

      // Act
      const answers = [];
      for (const name of [
        'COMPLETE_initial',
        'COMPLETE_recurring',
        'FAILED_recurring',
        'CANCELLED_subscription',
        'COMPLETE_special-chars_in_item_name',
      ]) {
        answers.push((await post(stack.api.url, ROUTE, payfastFixture(name))).status);
      }
      const events = await Promise.all(
        ['2447101', '2461990', '2475312:FAILED', '2447101:CANCELLED', '2480007'].map((id) =>
          processedEvent(stack, 'payfast', id),
        ),
      );

      // Assert
      expect(answers).toEqual([200, 200, 200, 200, 200]);
      expect(events.map((e) => e.outcome)).toEqual(['granted', 'granted', 'logged', 'logged', 'granted']);
      expect(await balanceOf(stack, user.id)).toBe(before + 2 * pro.credits + annual.credits);
      const ledger = await stack.pool.query(
        `SELECT metadata FROM credit_transactions WHERE idempotency_key = 'payfast:2447101'`,
      );
      expect(ledger.rows[0].metadata).toMatchObject({
        provider: 'payfast',
        eventId: '2447101',
        mPaymentId: 'sub_7f3c2a1e-initial',
        packageId: 'pro',
        amountGross: '199.00',
      });
    },
  );

  test(
    'when twenty deliveries of the same payment arrive at once, then all get 200, ' +
      'one workflow runs and one grant is made',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const { mPaymentId, credits, amount } = await checkout(stack, user.id);
      const pf = pfId();
      const body = signedItn(completeItn({ mPaymentId, pfPaymentId: pf, amount, customStr1: user.id }));

      // Act
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(stack.api.url, ROUTE, form(body))));
      await stack.temporal.workflow.getHandle(`payfast:${pf}`).result();
      const again = await post(stack.api.url, ROUTE, form(body));

      // Assert
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(again.status).toBe(200);
      expect(await balanceOf(stack, user.id)).toBe(credits);
      const grants = await stack.pool.query(
        `SELECT count(*)::int AS n FROM credit_transactions WHERE idempotency_key = $1`,
        [`payfast:${pf}`],
      );
      expect(grants.rows[0].n).toBe(1);
      expect(await executionsOf(stack, `payfast:${pf}`)).toBe(1);
    },
  );

  test(
    'when a parameter is tampered with or the passphrase is wrong, then the ' +
      'ITN is refused with 401 and nothing is granted',
    async () => {
      // Arrange
      const tampered = Buffer.from(
        fixture('payfast', 'events', 'COMPLETE_initial.form.txt')
          .toString('utf8')
          .replace('amount_gross=199.00', 'amount_gross=1999.00'),
      );
      const wrongPassphrase = signedItn(
        completeItn({ mPaymentId: 'x', pfPaymentId: pfId(), amount: '199.00', customStr1: '' }),
        'not-the-passphrase',
      );
      const reordered = Buffer.from(
        fixture('payfast', 'events', 'COMPLETE_recurring.form.txt')
          .toString('utf8')
          .replace('amount_fee=-4.58&amount_net=194.42', 'amount_net=194.42&amount_fee=-4.58'),
      );

      // Act
      const answers = await Promise.all(
        [tampered, wrongPassphrase, reordered, Buffer.from('m_payment_id=1&pf_payment_id=2')].map((b) =>
          post(stack.api.url, ROUTE, form(b)),
        ),
      );

      // Assert
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
      expect(answers[0]!.body).toMatchObject({ success: false, error: 'Unauthorized', code: 'INVALID_SIGNATURE' });
    },
  );

  test(
    'when the amount is not the price of the checkout, then the ITN is acknowledged, ' +
      'recorded as rejected and grants nothing',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const { mPaymentId } = await checkout(stack, user.id, 'pro');
      const pf = pfId();

      // Act
      const res = await post(
        stack.api.url,
        ROUTE,
        form(signedItn(completeItn({ mPaymentId, pfPaymentId: pf, amount: '99.00', customStr1: user.id }))),
      );
      const event = await processedEvent(stack, 'payfast', pf);

      // Assert
      expect(res.status).toBe(200);
      expect(event).toMatchObject({ outcome: 'rejected', credits: 0 });
      expect(event.detail).toContain('is not the package price 199.00');
      expect(await balanceOf(stack, user.id)).toBe(0);
    },
  );

  test('when custom_str1 names someone else or m_payment_id is unknown, then nothing is granted', async () => {
    const owner = await stack.createUser();
    const { mPaymentId, amount } = await checkout(stack, owner.id, 'pro');
    const [pf1, pf2] = [pfId(), pfId()];
    await post(
      stack.api.url,
      ROUTE,
      form(signedItn(completeItn({ mPaymentId, pfPaymentId: pf1, amount, customStr1: 'user_someoneElse0000000001' }))),
    );
    await post(
      stack.api.url,
      ROUTE,
      form(signedItn(completeItn({ mPaymentId: 'never-issued', pfPaymentId: pf2, amount, customStr1: owner.id }))),
    );
    expect((await processedEvent(stack, 'payfast', pf1)).detail).toContain('custom_str1 does not name the user');
    expect((await processedEvent(stack, 'payfast', pf2)).detail).toContain('names no checkout');
    expect(await balanceOf(stack, owner.id)).toBe(0);
  });

  test(
    "when the checkout's user was deleted (Clerk user.deleted deactivates it), then its signed COMPLETE attaches " +
      'nothing: recorded rejected, no credits, no credited payment',
    async () => {
      // Arrange
      const gone = await stack.createUser({ clerkUserId: `user_gone${pfId()}` });
      const { mPaymentId, amount } = await checkout(stack, gone.id, 'pro');
      await stack.pool.query(`UPDATE users SET status = 'deactivated', deleted_at = now() WHERE id = $1`, [gone.id]);
      const pf = pfId();

      // Act
      const res = await post(
        stack.api.url,
        ROUTE,
        form(signedItn(completeItn({ mPaymentId, pfPaymentId: pf, amount, customStr1: gone.id }))),
      );
      const event = await processedEvent(stack, 'payfast', pf);

      // Assert
      expect(res.status).toBe(200);
      expect(event).toMatchObject({ outcome: 'rejected', credits: 0 });
      expect(event.detail).toContain('no longer exists');
      expect(await balanceOf(stack, gone.id)).toBe(0);
      const payments = await stack.pool.query(
        `SELECT 1 FROM credited_payments WHERE provider = 'payfast' AND payment_id = $1`,
        [pf],
      );
      expect(payments.rows).toEqual([]);
    },
  );

  test(
    'when someone starts payfastPaymentWorkflow on Temporal with an ITN not signed with the passphrase, or with ' +
      'an input that is not its signed ITN, then each run fails and changes nothing, and the genuine ITN of that ' +
      'payment is still granted once',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const { mPaymentId, credits, amount } = await checkout(stack, user.id, 'pro');
      const [pf, cheap] = [pfId(), pfId()];
      const genuine = signedItn(completeItn({ mPaymentId, pfPaymentId: pf, amount, customStr1: user.id }));
      const unsigned = signedItn(
        completeItn({ mPaymentId, pfPaymentId: pf, amount, customStr1: user.id }),
        'a guess at the passphrase',
      );
      // A genuinely signed ITN of another (unpaid) payment, passed off as this one.
      const other = signedItn(completeItn({ mPaymentId: 'never-issued', pfPaymentId: cheap, amount, customStr1: '' }));
      // The input's facts from `claimed`; its fields (and so the signature), and the signed parameters, from `body`.
      const inputOf = (body: Buffer, claimed = body) => {
        const facts = readPayFastPayment(parseItn(claimed).fields);
        const itn = { ...facts, fields: parseItn(body).fields };
        return { itn, serverValidation: false, validationParamString: itnParamStringForValidation(body) };
      };
      const startDirectly = (workflowId: string, input: unknown) =>
        stack.temporal.workflow
          .start('payfastPaymentWorkflow', { workflowId, taskQueue: stack.config.TEMPORAL_TASK_QUEUE, args: [input] })
          .then((handle) => handle.result())
          .then(
            () => 'completed',
            (err: any) => String(err.cause?.cause?.message ?? err.message),
          );

      // Act
      const outcomes = await Promise.all([
        startDirectly(payfastWorkflowId(pf, 'COMPLETE'), inputOf(unsigned)),
        startDirectly(`payfast:evil-${pf}`, inputOf(other, genuine)),
      ]);
      const inboxBefore = await stack.pool.query(
        `SELECT 1 FROM webhook_events WHERE provider = 'payfast' AND event_id = $1`,
        [pf],
      );
      const balanceBefore = await balanceOf(stack, user.id);
      const delivered = await post(stack.api.url, ROUTE, form(genuine));
      const granted = await processedEvent(stack, 'payfast', pf);

      // Assert
      expect(outcomes[0]).toMatch(/signature does not match/);
      expect(outcomes[1]).toMatch(/states another payment than its signed ITN/);
      expect(inboxBefore.rows).toEqual([]);
      expect(balanceBefore).toBe(0);
      expect(delivered.status).toBe(200);
      expect(granted).toMatchObject({ outcome: 'granted', credits });
      expect(await balanceOf(stack, user.id)).toBe(credits);
    },
  );

  test('when the ITN names another merchant or lacks pf_payment_id, then it is refused with 400', async () => {
    const other = await post(
      stack.api.url,
      ROUTE,
      form(
        signedItn(
          completeItn({ mPaymentId: 'm', pfPaymentId: pfId(), amount: '1.00', customStr1: '', merchantId: '10000999' }),
        ),
      ),
    );
    const missing = await post(
      stack.api.url,
      ROUTE,
      form(
        signedItn([
          ['m_payment_id', 'm'],
          ['payment_status', 'COMPLETE'],
          ['merchant_id', '10000100'],
        ]),
      ),
    );
    expect([other.status, other.body.code]).toEqual([400, 'MERCHANT_MISMATCH']);
    expect([missing.status, missing.body.code]).toEqual([400, 'INVALID_ITN']);
  });
});

describe('PayFast ITN webhook with the production safeguards on', () => {
  let stack: TestStack;
  let validator: Server;
  let answer = 'VALID';
  const validated: string[] = [];

  beforeAll(async () => {
    validator = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        validated.push(body);
        res.end(
          answer === 'VALID'
            ? fixture('payfast', 'validate-response.VALID.txt')
            : fixture('payfast', 'validate-response.INVALID.txt'),
        );
      });
    });
    await new Promise<void>((r) => validator.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(validator.address() as AddressInfo).port}/eng/query/validate`;
    stack = await startTestStack({
      env: { ...WEBHOOK_ENV, PAYFAST_SERVER_VALIDATION: 'true', PAYFAST_VERIFY_SOURCE: 'true' },
      activityDeps: { confirmWithPayFast: createPayFastServerValidator({ url }) },
      // The test client is 127.0.0.1: allow it the way PAYFAST source ranges allow PayFast.
      verifiers: { isPayFastSource: async (ip) => ip === '127.0.0.1' || ip === '::ffff:127.0.0.1' },
    });
  });
  afterAll(async () => {
    await stack.stop();
    validator.close();
  });

  test(
    'when PayFast confirms the ITN as VALID, then the ' + 'package is granted; when it answers INVALID, nothing is',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const { mPaymentId, credits, amount } = await checkout(stack, user.id);
      const [good, bad] = [pfId(), pfId()];

      // Act
      answer = 'VALID';
      await post(
        stack.api.url,
        ROUTE,
        form(signedItn(completeItn({ mPaymentId, pfPaymentId: good, amount, customStr1: user.id }))),
      );
      const granted = await processedEvent(stack, 'payfast', good);
      answer = 'INVALID';
      await post(
        stack.api.url,
        ROUTE,
        form(signedItn(completeItn({ mPaymentId, pfPaymentId: bad, amount, customStr1: user.id }))),
      );
      const refused = await processedEvent(stack, 'payfast', bad);

      // Assert
      expect(granted.outcome).toBe('granted');
      expect(refused).toMatchObject({ outcome: 'rejected', detail: expect.stringContaining('INVALID') });
      expect(await balanceOf(stack, user.id)).toBe(credits);
      expect(validated.at(-1)).not.toContain('signature=');
      expect(validated.at(-1)).toContain(`pf_payment_id=${bad}`);
    },
  );

  test(
    'when someone starts payfastPaymentWorkflow on Temporal saying serverValidation: false for a signed ITN ' +
      'PayFast does not confirm, then the worker asks PayFast anyway and grants nothing',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const { mPaymentId, amount } = await checkout(stack, user.id);
      const pf = pfId();
      const body = signedItn(completeItn({ mPaymentId, pfPaymentId: pf, amount, customStr1: user.id }));
      answer = 'INVALID';

      // Act
      const result = await stack.temporal.workflow.execute('payfastPaymentWorkflow', {
        workflowId: payfastWorkflowId(pf, 'COMPLETE'),
        taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
        args: [
          {
            itn: readPayFastPayment(parseItn(body).fields),
            serverValidation: false,
            validationParamString: itnParamStringForValidation(body),
          },
        ],
      });

      // Assert
      expect(result).toMatchObject({ outcome: 'rejected', credits: 0, detail: expect.stringContaining('INVALID') });
      expect(validated.at(-1)).toContain(`pf_payment_id=${pf}`);
      expect(await balanceOf(stack, user.id)).toBe(0);
    },
  );

  test('when the ITN comes from an address that is not PayFast, then it is refused with 403', async () => {
    const guarded = await startTestStack({ env: { ...WEBHOOK_ENV, PAYFAST_VERIFY_SOURCE: 'true' }, worker: false });
    try {
      const res = await post(guarded.api.url, ROUTE, payfastFixture('COMPLETE_initial'));
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN_SOURCE']);
    } finally {
      await guarded.stop();
    }
  });
});
