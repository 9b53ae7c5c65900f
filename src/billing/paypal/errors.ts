/**
 * The delivery is not provably from PayPal (bad headers, cert URL, certificate or signature): answer 401, do no work.
 */
export class WebhookSignatureError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`PayPal webhook rejected: ${reason}`, options);
    this.name = 'WebhookSignatureError';
  }
}

/**
 * Nothing could decide whether the delivery is authentic (certificate unobtainable and the postback unavailable or not
 * configured). This is not a verdict: answer 503 so PayPal retries later.
 */
export class VerificationUnavailableError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`PayPal webhook verification unavailable: ${reason}`, options);
    this.name = 'VerificationUnavailableError';
  }
}
