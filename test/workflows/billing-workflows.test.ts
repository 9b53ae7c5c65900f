/**
 * The billing workflows on a dev server of their own, with stubbed activities: what each returns, the UserId
 * attribute operators search by, PayPal's "subscription not known yet" retries and PayFast's server validation.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { BillingActivities } from '../../activities/billing';
import type { EventResult } from '../../src/platform/webhooks/event-result';
import { UserIdAttr } from '../../src/platform/temporal/search-attributes';
import type { payfastPaymentWorkflow, payfastRefundWorkflow, paypalEventWorkflow } from '../../workflows';
import { eventResult, payFastPaymentInput, payFastRefundInput, payPalEventInput } from './workflow-samples';
import { callLog, logged, useStubbedWorker, type CallLog, type StubActivities } from './workflow-test-env';

const ACTIVITIES = [
  'applyPayPalEvent',
  'applyPayFastItn',
  'applyPayFastRefund',
  'confirmPayFastItn',
  'recordPayFastRejection',
];

const testbed = useStubbedWorker(ACTIVITIES);

let runs = 0;

type BillingWorkflow = typeof paypalEventWorkflow | typeof payfastPaymentWorkflow | typeof payfastRefundWorkflow;

/** Runs one workflow over these stubs; returns its result, the calls made and the UserId attribute it left. */
async function run<W extends BillingWorkflow>(
  workflowType: string,
  input: Parameters<W>[0],
  stubs: StubActivities<BillingActivities>,
): Promise<{ result: EventResult; log: CallLog; userId: string | undefined }> {
  const log = callLog();
  testbed.worker.use(logged(log, stubs));
  const handle = await testbed.env.client.workflow.start<(arg: typeof input) => Promise<EventResult>>(workflowType, {
    taskQueue: testbed.worker.taskQueue,
    workflowId: `${workflowType}-${++runs}-${testbed.worker.taskQueue}`,
    args: [input],
  });
  const result = await handle.result();
  const userId = (await handle.describe()).typedSearchAttributes.get(UserIdAttr);
  return { result, log, userId };
}

describe('paypalEventWorkflow', () => {
  test("returns the activity's result and tags the workflow with the user", async () => {
    const input = payPalEventInput();
    const applied = eventResult({ userId: 'user-7', credits: 250 });
    const { result, log, userId } = await run<typeof paypalEventWorkflow>('paypalEventWorkflow', input, {
      applyPayPalEvent: async () => applied,
    });

    expect(result).toEqual(applied);
    expect(log.calls).toEqual([{ name: 'applyPayPalEvent', input }]);
    expect(userId).toBe('user-7');
  });

  test('an event for no known user sets no UserId', async () => {
    const { result, userId } = await run<typeof paypalEventWorkflow>('paypalEventWorkflow', payPalEventInput(), {
      applyPayPalEvent: async () => eventResult({ outcome: 'ignored', userId: null, credits: 0, transactionId: null }),
    });

    expect(result.outcome).toBe('ignored');
    expect(userId).toBeUndefined();
  });

  test('a sale before its subscription (SUBSCRIPTION_NOT_KNOWN_YET) is retried until it applies', async () => {
    let attempts = 0;
    const { result, log } = await run<typeof paypalEventWorkflow>('paypalEventWorkflow', payPalEventInput(), {
      applyPayPalEvent: async () => {
        if (++attempts <= 2) {
          throw ApplicationFailure.retryable('subscription I-SUB1 not stored yet', 'SUBSCRIPTION_NOT_KNOWN_YET');
        }
        return eventResult();
      },
    });

    expect(log.count('applyPayPalEvent')).toBe(3);
    expect(result).toEqual(eventResult());
  });
});

describe('payfastPaymentWorkflow', () => {
  const rejection = eventResult({ outcome: 'rejected', credits: 0, transactionId: null, detail: 'invalid' });

  test('with server validation, an ITN PayFast does not confirm is recorded rejected, never applied', async () => {
    const input = payFastPaymentInput({ serverValidation: true });
    const { result, log } = await run<typeof payfastPaymentWorkflow>('payfastPaymentWorkflow', input, {
      confirmPayFastItn: async () => false,
      recordPayFastRejection: async () => rejection,
      applyPayFastItn: async () => eventResult(),
    });

    expect(log.names()).toEqual(['confirmPayFastItn', 'recordPayFastRejection']);
    expect(log.inputOf('confirmPayFastItn')).toEqual({ paramString: input.validationParamString });
    expect(log.inputOf('recordPayFastRejection')).toEqual({
      itn: input.itn,
      detail: 'PayFast answered INVALID to /eng/query/validate',
    });
    expect(result).toEqual(rejection);
  });

  test('with server validation, a confirmed ITN is applied', async () => {
    const input = payFastPaymentInput({ serverValidation: true });
    const { result, log, userId } = await run<typeof payfastPaymentWorkflow>('payfastPaymentWorkflow', input, {
      confirmPayFastItn: async () => true,
      applyPayFastItn: async () => eventResult({ userId: 'user-9' }),
    });

    expect(log.names()).toEqual(['confirmPayFastItn', 'applyPayFastItn']);
    expect(log.inputOf('applyPayFastItn')).toEqual(input.itn);
    expect(result).toEqual(eventResult({ userId: 'user-9' }));
    expect(userId).toBe('user-9');
  });

  test.each([
    { case: 'server validation off', serverValidation: false, paymentStatus: 'COMPLETE' },
    { case: 'a status other than COMPLETE', serverValidation: true, paymentStatus: 'FAILED' },
  ])('with $case, the ITN is applied without asking PayFast', async ({ serverValidation, paymentStatus }) => {
    const base = payFastPaymentInput();
    const input = payFastPaymentInput({ serverValidation, itn: { ...base.itn, paymentStatus } });
    const { result, log, userId } = await run<typeof payfastPaymentWorkflow>('payfastPaymentWorkflow', input, {
      confirmPayFastItn: async () => true,
      applyPayFastItn: async () => eventResult(),
    });

    expect(log.calls).toEqual([{ name: 'applyPayFastItn', input: input.itn }]);
    expect(result).toEqual(eventResult());
    expect(userId).toBe('user-1');
  });
});

describe('payfastRefundWorkflow', () => {
  test("returns the refund's result and tags the workflow with the user", async () => {
    const refunded = eventResult({ outcome: 'revoked', credits: -100, userId: 'user-3' });
    const { result, log, userId } = await run<typeof payfastRefundWorkflow>(
      'payfastRefundWorkflow',
      payFastRefundInput,
      { applyPayFastRefund: async () => refunded },
    );

    expect(log.calls).toEqual([{ name: 'applyPayFastRefund', input: payFastRefundInput }]);
    expect(result).toEqual(refunded);
    expect(userId).toBe('user-3');
  });
});
