import { isDeepStrictEqual } from 'node:util';
import type { ClerkEventInput } from './apply-clerk-event';
import { ClerkSignatureError, type ClerkVerifier } from './clerk-webhook-verifier';
import { AppError, PLATFORM_ERRORS } from '../platform/errors';
import { IDENTITY_ERRORS } from './error-codes';

/**
 * A Clerk event workflow whose input the worker cannot prove Clerk signed: nothing is applied or recorded, so the
 * svix-id stays free for Clerk's genuine delivery (a failed `clerk:<svix-id>` may be started again). Not retryable.
 */
export class ClerkEventNotAuthenticError extends AppError {
  constructor(reason: string) {
    super(IDENTITY_ERRORS.CLERK_EVENT_NOT_AUTHENTIC, `Clerk event refused by the worker: ${reason}`);
  }
}

/**
 * Proves a workflow's Clerk event before anything is applied (anyone who reaches the Temporal frontend can start
 * clerkEventWorkflow with any input, e.g. a user.deleted for someone else): the Svix signature over the delivery's
 * bytes is checked again with this worker's CLERK_WEBHOOK_SECRET, without the api's 5-minute window (the same
 * delivery retried an hour later is still Clerk's), and the event applied is the one read from those bytes. The
 * input's svix-id, time and parsed event must be the signed ones. A workflow started before deliveries were carried
 * has nothing to check and is refused (Clerk's dashboard can resend the message).
 */
export function authenticClerkEvent(verify: ClerkVerifier | undefined, input: ClerkEventInput): ClerkEventInput {
  if (!input.delivery)
    throw new ClerkEventNotAuthenticError('the input carries no signed delivery (resend it from Clerk)');
  if (!verify)
    throw new AppError(
      PLATFORM_ERRORS.WEBHOOK_VERIFICATION_UNAVAILABLE,
      'CLERK_WEBHOOK_SECRET is not configured on this worker',
      { retryable: false },
    );
  const { rawBody, headers } = input.delivery;
  if (typeof rawBody !== 'string' || typeof headers !== 'object' || headers === null)
    throw new ClerkEventNotAuthenticError('the input carries no delivery the worker can read');
  let signed: ReturnType<ClerkVerifier>;
  try {
    signed = verify(Buffer.from(rawBody, 'base64'), { ...headers });
  } catch (err) {
    if (err instanceof ClerkSignatureError) throw new ClerkEventNotAuthenticError(err.message);
    throw err;
  }
  const authentic: ClerkEventInput = {
    svixId: signed.id,
    deliveredAtMs: signed.timestampMs,
    event: signed.event,
    delivery: input.delivery,
  };
  // Temporal hands the input over as JSON: compare with the signed event as it would arrive the same way.
  if (
    input.svixId !== authentic.svixId ||
    input.deliveredAtMs !== authentic.deliveredAtMs ||
    !isDeepStrictEqual(JSON.parse(JSON.stringify(authentic.event)), input.event)
  )
    throw new ClerkEventNotAuthenticError('the workflow input states another delivery than its signed one');
  return authentic;
}
