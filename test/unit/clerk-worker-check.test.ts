/**
 * The worker's check of a clerkEventWorkflow input (authentic-clerk-event.ts): the Svix signature over the carried
 * bytes, checked again without the api's 5-minute window, and the input's svix-id, time and event equal to the
 * signed ones.
 */
import { randomUUID } from 'node:crypto';
import { authenticClerkEvent } from '../../src/identity/authentic-clerk-event';
import { createClerkVerifier } from '../../src/identity/clerk-webhook-verifier';
import type { ClerkEventInput } from '../../src/identity/workflow-types';
import { AppError } from '../../src/platform/errors';
import { CLERK_SECRET, clerkDelivery, fixture } from '../helpers/webhooks';

const verify = createClerkVerifier({ secret: CLERK_SECRET, maxAgeMs: null });
const inputOf = (atMs = Date.now()): ClerkEventInput => {
  const d = clerkDelivery(fixture('clerk', 'user.deleted.json'), { id: `msg_${randomUUID()}`, atMs });
  return {
    svixId: d.headers['svix-id'] as string,
    deliveredAtMs: Math.floor(atMs / 1000) * 1000,
    event: JSON.parse(d.body.toString('utf8')),
    delivery: {
      rawBody: d.body.toString('base64'),
      headers: {
        'svix-id': d.headers['svix-id'] as string,
        'svix-timestamp': d.headers['svix-timestamp'] as string,
        'svix-signature': d.headers['svix-signature'] as string,
      },
    },
  };
};
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, retryable: err.retryable };
    throw err;
  }
  throw new Error('accepted');
};

describe('the worker re-checks a Clerk delivery', () => {
  test('when the signed delivery is checked a day after Clerk signed it, then it is accepted as signed', () => {
    const input = inputOf(Date.now() - 86_400_000);

    expect(authenticClerkEvent(verify, input)).toEqual(input);
  });

  test.each<[string, (input: ClerkEventInput) => void]>([
    ['no delivery', (i) => delete i.delivery],
    ['another svix-id', (i) => (i.svixId = 'msg_other')],
    ['another delivery time', (i) => (i.deliveredAtMs += 1000)],
    ['another event type', (i) => (i.event.type = 'user.created')],
    ['another user', (i) => (i.event.data.id = 'user_someone_else')],
    [
      'a body changed after signing',
      (i) => (i.delivery!.rawBody = Buffer.from('{"type":"user.deleted"}').toString('base64')),
    ],
    ['a signature of another id', (i) => (i.delivery!.headers['svix-id'] = 'msg_other')],
  ])('when the input has %s, then it is refused (CLERK_EVENT_NOT_AUTHENTIC, not retried)', (_n, tamper) => {
    const input = inputOf();
    tamper(input);

    expect(refusal(() => authenticClerkEvent(verify, input))).toEqual({
      code: 'CLERK_EVENT_NOT_AUTHENTIC',
      retryable: false,
    });
  });

  test('when the worker has no CLERK_WEBHOOK_SECRET, then nothing is applied', () => {
    expect(refusal(() => authenticClerkEvent(undefined, inputOf()))).toEqual({
      code: 'WEBHOOK_VERIFICATION_UNAVAILABLE',
      retryable: false,
    });
  });
});
