/**
 * The worker's check of a paypalEventWorkflow input (authentic-event.ts): the signed delivery verified again with the
 * api's verifier and the event read from the verified bytes; for an input without a delivery (a workflow started
 * before deliveries were carried), PayPal's own copy of the event by id (event-lookup.ts).
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../src/platform/errors';
import { createPayPalApiClient } from '../../src/billing/paypal/api-client';
import { authenticPayPalEvent, type PayPalEventCheckDeps } from '../../src/billing/paypal/authentic-event';
import { VerificationUnavailableError } from '../../src/billing/paypal/errors';
import { createPayPalEventLookup, type PayPalEventLookup } from '../../src/billing/paypal/event-lookup';
import { parsePayPalEvent } from '../../src/billing/paypal/paypal-event';
import { paypalTransmissionHeaders } from '../../src/billing/paypal/signature';
import type { PayPalEventInput } from '../../src/billing/workflow-types';
import { fixture, signPayPal, testPayPalVerifier } from '../helpers/webhooks';

const SALE = fixture('paypal', 'events', 'PAYMENT.SALE.COMPLETED.json').toString('utf8');
const signedSale = (edit: (body: any) => void = () => undefined) => {
  const body = JSON.parse(SALE);
  body.id = `WH-${randomUUID()}`;
  edit(body);
  return signPayPal(JSON.stringify(body));
};
const inputOf = (d: { body: Buffer; headers: Record<string, string> }): PayPalEventInput => ({
  // As Temporal hands it over: JSON.
  event: JSON.parse(JSON.stringify(parsePayPalEvent(JSON.parse(d.body.toString('utf8'))))),
  delivery: { rawBody: d.body.toString('base64'), headers: paypalTransmissionHeaders(d.headers) },
  unknownSubscriptionRetryMs: 1000,
});
const lookupOf = (answers: Record<string, Buffer | null | Error>): PayPalEventLookup => ({
  find: async (id) => {
    const answer = answers[id] ?? null;
    if (answer instanceof Error) throw answer;
    return answer;
  },
});
/** The code and retryability the activity turns into its Temporal failure. */
const failureOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return { code: err.code, retryable: err.retryable, message: err.message };
};
const deps: PayPalEventCheckDeps = { paypalVerifier: testPayPalVerifier() };

describe('the worker re-checks a PayPal event with its signed delivery', () => {
  test(
    'when the delivery verifies and the input states its event, ' + 'then the event read from the bytes is applied',
    async () => {
      const delivery = signedSale();
      const input = inputOf(delivery);

      const checked = await authenticPayPalEvent(deps, input);

      expect(checked.event).toEqual(input.event);
      expect(checked.payload).toEqual(JSON.parse(delivery.body.toString('utf8')));
    },
  );

  test.each([
    ['the amount', (e: any) => (e.sale.total = '19.99')],
    ['the subscription', (e: any) => (e.sale.subscriptionId = 'I-OTHER')],
    ['the event id', (e: any) => (e.eventId = 'WH-OTHER')],
    ['an added member', (e: any) => (e.sale.extra = 1)],
  ])(
    'when the input’s parsed event differs from the signed body in %s, then it is refused, not retried',
    async (_n, tamper) => {
      const input = inputOf(signedSale());
      tamper(input.event);

      expect(await failureOf(authenticPayPalEvent(deps, input))).toMatchObject({
        code: 'PAYPAL_EVENT_NOT_AUTHENTIC',
        retryable: false,
        message: expect.stringMatching(/another event than its signed body/),
      });
    },
  );

  test.each([
    [
      'a body changed after signing',
      (i: PayPalEventInput) => {
        i.delivery!.rawBody = Buffer.from(
          Buffer.from(i.delivery!.rawBody, 'base64').toString().replace('9.99', '1.99'),
        ).toString('base64');
      },
    ],
    [
      'another transmission id',
      (i: PayPalEventInput) => {
        i.delivery!.headers['paypal-transmission-id'] = randomUUID();
      },
    ],
    [
      'a certificate URL of another host',
      (i: PayPalEventInput) => {
        i.delivery!.headers['paypal-cert-url'] = 'https://evil.example/cert.pem';
      },
    ],
    [
      'no transmission headers',
      (i: PayPalEventInput) => {
        i.delivery!.headers = {};
      },
    ],
    [
      'a delivery of the wrong shape',
      (i: PayPalEventInput) => {
        (i.delivery as any).rawBody = 42;
      },
    ],
  ])('when the delivery does not verify (%s), then it is refused, not retried', async (_n, tamper) => {
    const input = inputOf(signedSale());
    tamper(input);

    expect(await failureOf(authenticPayPalEvent(deps, input))).toMatchObject({
      code: 'PAYPAL_EVENT_NOT_AUTHENTIC',
      retryable: false,
    });
  });

  test(
    'when the certificate cannot be checked now, or the worker has no PAYPAL_WEBHOOK_ID, ' + 'then it is retried',
    async () => {
      const input = inputOf(signedSale());
      const unavailable = {
        paypalVerifier: {
          verify: async () => {
            throw new VerificationUnavailableError('certificate host unreachable');
          },
        },
      };

      expect(await failureOf(authenticPayPalEvent(unavailable, input))).toMatchObject({
        code: 'WEBHOOK_VERIFICATION_UNAVAILABLE',
        retryable: true,
      });
      expect(await failureOf(authenticPayPalEvent({}, input))).toMatchObject({
        code: 'WEBHOOK_VERIFICATION_UNAVAILABLE',
        retryable: true,
      });
    },
  );
});

describe('an input without a delivery (a workflow started before deliveries were carried)', () => {
  test('when PayPal has the event, then PayPal’s copy is applied, whatever the input’s copy says', async () => {
    const genuine = signedSale();
    const input = inputOf(genuine);
    delete input.delivery;
    (input.event as any).sale.total = '19.99';

    const checked = await authenticPayPalEvent(
      { ...deps, paypalEventLookup: lookupOf({ [input.event.eventId]: genuine.body }) },
      input,
    );

    expect(checked.event).toEqual(parsePayPalEvent(JSON.parse(genuine.body.toString('utf8'))));
    expect((checked.event as any).sale.total).toBe('9.99');
  });

  test.each<[string, string, boolean, (id: string) => PayPalEventLookup | undefined]>([
    ['PayPal knows no such event', 'PAYPAL_EVENT_NOT_AUTHENTIC', false, () => lookupOf({})],
    [
      'PayPal answers another event',
      'PAYPAL_EVENT_NOT_AUTHENTIC',
      false,
      (id) => lookupOf({ [id]: signedSale().body }),
    ],
    ['no PayPal API credentials are on the worker', 'PAYPAL_EVENT_NOT_AUTHENTIC', false, () => undefined],
    [
      'PayPal cannot be reached',
      'WEBHOOK_VERIFICATION_UNAVAILABLE',
      true,
      (id) => lookupOf({ [id]: new VerificationUnavailableError('timeout') }),
    ],
  ])('when %s, then nothing is applied: %s (retried: %s)', async (_n, code, retryable, lookup) => {
    const input = inputOf(signedSale());
    delete input.delivery;

    expect(
      await failureOf(authenticPayPalEvent({ ...deps, paypalEventLookup: lookup(input.event.eventId) }, input)),
    ).toMatchObject({ code, retryable });
  });

  test('when the input has neither a delivery nor an event id, then it is refused', async () => {
    expect(
      await failureOf(authenticPayPalEvent(deps, { unknownSubscriptionRetryMs: 1 } as unknown as PayPalEventInput)),
    ).toMatchObject({ code: 'PAYPAL_EVENT_NOT_AUTHENTIC' });
  });
});

describe('PayPal’s event lookup', () => {
  const calls: { url: string; authorization: string | null }[] = [];
  const fakeFetch = (eventAnswer: () => Response): typeof fetch =>
    (async (url: string | URL | Request, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      calls.push({ url: String(url), authorization: headers.get('authorization') });
      if (String(url).endsWith('/v1/oauth2/token'))
        return new Response(JSON.stringify({ access_token: 'tok', expires_in: 3600 }), { status: 200 });
      return eventAnswer();
    }) as typeof fetch;
  const lookupWith = (answer: () => Response) =>
    createPayPalEventLookup(
      createPayPalApiClient({
        baseUrl: 'https://paypal.test',
        clientId: 'id',
        clientSecret: 's',
        fetch: fakeFetch(answer),
      }),
    );
  beforeEach(() => (calls.length = 0));

  test(
    'when PayPal has the event, ' + 'then its bytes come back, fetched with the app’s bearer token by event id',
    async () => {
      const body = Buffer.from('{"id":"WH-1/2", "event_type":"X"}');
      expect(await lookupWith(() => new Response(body, { status: 200 })).find('WH-1/2')).toEqual(body);
      expect(calls.at(-1)).toEqual({
        url: 'https://paypal.test/v1/notifications/webhooks-events/WH-1%2F2',
        authorization: 'Bearer tok',
      });
    },
  );

  test.each([404, 400])('when PayPal answers %i, then there is no such event', async (status) => {
    expect(await lookupWith(() => new Response('{}', { status })).find('WH-1')).toBeNull();
  });

  test('when PayPal answers 500, then it is unavailable (retried)', async () => {
    await expect(lookupWith(() => new Response('{}', { status: 500 })).find('WH-1')).rejects.toBeInstanceOf(
      VerificationUnavailableError,
    );
  });
});
