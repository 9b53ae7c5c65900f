/**
 * The billing workflows on a dev server of their own, with stubbed activities: what each returns, the UserId
 * attribute operators search by, PayPal's "subscription not known yet" retries and PayFast's server validation.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { BillingActivities } from '../../src/billing/activities';
import type { EventResult } from '../../src/platform/webhooks/event-result';
import { UserIdAttr } from '../../src/platform/temporal/search-attributes';
import type { payfastPaymentWorkflow, payfastRefundWorkflow, paypalEventWorkflow } from '../../src/billing/workflows';
import { eventResult, payFastPaymentInput, payFastRefundInput, payPalEventInput } from './workflow-samples';
import { callLog, logged, useStubbedWorker, type CallLog, type StubActivities } from './workflow-test-env';

const ACTIVITIES = [
  'applyPayPalEvent',
  'applyPayFastItn',
  'applyPayFastRefund',
  'checkPayFastItn',
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
  /** The ITN as the worker's check read it from the signed parameters (not the input's copy). */
  const verified = { ...payFastPaymentInput().itn, fields: { pf_payment_id: '1089250', signature: 'ab'.repeat(16) } };

  test("the worker checks the ITN first and applies the ITN it verified, not the input's copy", async () => {
    const input = payFastPaymentInput();
    const { result, log, userId } = await run<typeof payfastPaymentWorkflow>('payfastPaymentWorkflow', input, {
      checkPayFastItn: async () => ({ itn: verified, refusal: null }),
      applyPayFastItn: async () => eventResult({ userId: 'user-9' }),
    });

    expect(log.calls).toEqual([
      { name: 'checkPayFastItn', input: { itn: input.itn, validationParamString: input.validationParamString } },
      { name: 'applyPayFastItn', input: verified },
    ]);
    expect(result).toEqual(eventResult({ userId: 'user-9' }));
    expect(userId).toBe('user-9');
  });

  test('an ITN the check refuses (PayFast answered INVALID) is recorded rejected, never applied', async () => {
    const input = payFastPaymentInput();
    const { result, log } = await run<typeof payfastPaymentWorkflow>('payfastPaymentWorkflow', input, {
      checkPayFastItn: async () => ({ itn: verified, refusal: 'PayFast answered INVALID to /eng/query/validate' }),
      recordPayFastRejection: async () => rejection,
      applyPayFastItn: async () => eventResult(),
    });

    expect(log.names()).toEqual(['checkPayFastItn', 'recordPayFastRejection']);
    expect(log.inputOf('recordPayFastRejection')).toEqual({
      itn: verified,
      detail: 'PayFast answered INVALID to /eng/query/validate',
    });
    expect(result).toEqual(rejection);
  });

  test('an ITN that is not authentic fails the workflow: nothing is applied or recorded', async () => {
    const log = callLog();
    testbed.worker.use(
      logged(log, {
        checkPayFastItn: async () => {
          throw ApplicationFailure.nonRetryable('the ITN signature does not match', 'ITN_NOT_AUTHENTIC');
        },
        recordPayFastRejection: async () => rejection,
        applyPayFastItn: async () => eventResult(),
      } satisfies StubActivities<BillingActivities>),
    );
    const handle = await testbed.env.client.workflow.start('payfastPaymentWorkflow', {
      taskQueue: testbed.worker.taskQueue,
      workflowId: `payfastPaymentWorkflow-${++runs}-${testbed.worker.taskQueue}`,
      args: [payFastPaymentInput()],
    });

    await expect(handle.result()).rejects.toThrow(/Workflow execution failed/);
    expect(log.names()).toEqual(['checkPayFastItn']);
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
