import { isDeepStrictEqual } from 'node:util';
import type { PayPalEventInput } from '../workflow-types';
import {
  PayPalCheckUnavailableError,
  PayPalEventNotAuthenticError,
  VerificationUnavailableError,
  WebhookSignatureError,
} from './errors';
import type { PayPalEventLookup } from './event-lookup';
import { parsePayPalEvent, PayPalEventError, type PayPalEvent } from './paypal-event';
import type { PayPalVerifier } from './verifier';
import { findUnsafeInput } from '../../platform/http/unsafe-input';

export interface PayPalEventCheckDeps {
  /** The verifier the api uses, built by the same code from this worker's PAYPAL_WEBHOOK_ID and PAYPAL_MODE. */
  paypalVerifier?: PayPalVerifier;
  /** PayPal's copy of an event (needs PAYPAL_CLIENT_ID / _SECRET): only for workflows started without a delivery. */
  paypalEventLookup?: PayPalEventLookup;
}

/** An event the worker proved PayPal sent, read from PayPal's bytes, and that body (kept in the inbox). */
export interface AuthenticPayPalEvent {
  event: PayPalEvent;
  payload: unknown;
}

/**
 * Proves a workflow's PayPal event before anything is applied (anyone who reaches the Temporal frontend can start
 * paypalEventWorkflow with any input): the signed delivery is verified again, exactly as the api did, and the event
 * applied is the one read from those verified bytes, which the input's parsed copy must equal. A workflow started
 * without a delivery (before this check existed) gets PayPal's own copy of its event by id instead.
 * Throws PayPalEventNotAuthenticError (not retryable, nothing recorded) or PayPalCheckUnavailableError (retried).
 */
export async function authenticPayPalEvent(
  deps: PayPalEventCheckDeps,
  input: PayPalEventInput,
): Promise<AuthenticPayPalEvent> {
  if (!input.delivery) return fetchedFromPayPal(deps, input);
  if (!deps.paypalVerifier) throw new PayPalCheckUnavailableError('PAYPAL_WEBHOOK_ID is not configured on this worker');
  const { rawBody, headers } = input.delivery;
  if (typeof rawBody !== 'string' || typeof headers !== 'object' || headers === null)
    throw new PayPalEventNotAuthenticError('the input carries no delivery the worker can read');
  const bytes = Buffer.from(rawBody, 'base64');
  try {
    await deps.paypalVerifier.verify({ headers, rawBody: bytes });
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw new PayPalEventNotAuthenticError(err.message);
    if (err instanceof VerificationUnavailableError) throw new PayPalCheckUnavailableError(err.message, { cause: err });
    throw err;
  }
  const signed = readEvent(bytes);
  // Temporal hands the input over as JSON: compare with the signed event as it would arrive the same way.
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(signed.event)), input.event))
    throw new PayPalEventNotAuthenticError('the workflow input states another event than its signed body');
  return signed;
}

async function fetchedFromPayPal(deps: PayPalEventCheckDeps, input: PayPalEventInput): Promise<AuthenticPayPalEvent> {
  const eventId: unknown = input.event?.eventId;
  if (typeof eventId !== 'string' || eventId === '')
    throw new PayPalEventNotAuthenticError('the input carries neither a signed delivery nor an event id');
  if (!deps.paypalEventLookup)
    throw new PayPalEventNotAuthenticError(
      'the input carries no signed delivery, and without PAYPAL_CLIENT_ID / PAYPAL_CLIENT_SECRET this worker ' +
        'cannot ask PayPal for the event',
    );
  let bytes: Buffer | null;
  try {
    bytes = await deps.paypalEventLookup.find(eventId);
  } catch (err) {
    if (err instanceof VerificationUnavailableError) throw new PayPalCheckUnavailableError(err.message, { cause: err });
    throw err;
  }
  if (!bytes) throw new PayPalEventNotAuthenticError(`PayPal knows no event ${eventId} for this app`);
  const fetched = readEvent(bytes);
  if (fetched.event.eventId !== eventId)
    throw new PayPalEventNotAuthenticError(`PayPal answered event ${fetched.event.eventId} for ${eventId}`);
  return fetched;
}

/** The route's reading of a verified body (JSON, storable, an event), here on bytes PayPal vouched for. */
function readEvent(bytes: Buffer): AuthenticPayPalEvent {
  let payload: unknown;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new PayPalEventNotAuthenticError('the signed body is not JSON');
  }
  const unsafe = findUnsafeInput(payload, 'body');
  if (unsafe)
    throw new PayPalEventNotAuthenticError(
      `the signed body cannot be stored: ${unsafe.parameter} must be ${unsafe.expected}`,
    );
  try {
    return { event: parsePayPalEvent(payload), payload };
  } catch (err) {
    if (err instanceof PayPalEventError) throw new PayPalEventNotAuthenticError(`the signed body: ${err.message}`);
    throw err;
  }
}
