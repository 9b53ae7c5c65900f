/**
 * The service's failure vocabulary: every code a domain error, an activity failure or a failed job can carry,
 * with the HTTP status it answers and whether retrying may help. This is the only table of its kind: errors
 * (app-error.ts) read their status and default retryability here, activities put the code on the Temporal
 * failure as its `type`, workflows and routes read the code back. Pure data: the workflow bundle imports it.
 */
export const ERROR_CODES = {
  /** Not an address or transaction of the chain, or a chain the service does not screen. */
  INVALID_TARGET: { status: 422, retryable: false },
  TRANSACTION_NOT_FOUND: { status: 422, retryable: false },
  /** The chain's node or API failed or is not set up; a configuration error is raised as not retryable. */
  CHAIN_UNAVAILABLE: { status: 502, retryable: true },
  INSUFFICIENT_CREDITS: { status: 402, retryable: false },
  /** Anything the vocabulary does not name: the job failed, and the log holds the cause. */
  ANALYSIS_FAILED: { status: 502, retryable: false },
  /** The queued-job sweeper found a job its api never started (credits released, nothing charged). */
  NOT_STARTED: { status: 502, retryable: false },
  /** The job's workflow ended without a result (terminated, timed out). */
  JOB_ABORTED: { status: 502, retryable: false },
  /** A PayPal sale before its subscription is stored: retried with backoff, never dropped. */
  SUBSCRIPTION_NOT_KNOWN_YET: { status: 409, retryable: true },
  /** A refund of a payment not credited (yet): retried like a sale before its subscription. */
  PAYMENT_NOT_KNOWN_YET: { status: 409, retryable: true },
  /** PayFast's validate endpoint could not be reached. */
  PAYFAST_UNAVAILABLE: { status: 503, retryable: true },
  /** A PayFast payment workflow whose ITN does not verify (signature, merchant) or is not the one its input claims. */
  ITN_NOT_AUTHENTIC: { status: 401, retryable: false },
  /** A PayFast refund workflow for a refund the api never recorded, or for another payment or amount than recorded. */
  REFUND_NOT_RECORDED: { status: 409, retryable: false },
  /** A PayFast refund id already recorded for another payment or amount. */
  REFUND_ID_CONFLICT: { status: 409, retryable: false },
  /**
   * A PayPal event workflow whose input the worker cannot prove PayPal sent: its signed delivery does not verify, the
   * event differs from the signed body, or (a workflow started without the delivery) PayPal does not know the event.
   */
  PAYPAL_EVENT_NOT_AUTHENTIC: { status: 401, retryable: false },
  /** A Clerk event workflow whose input carries no Svix-signed delivery that verifies, or another event than signed. */
  CLERK_EVENT_NOT_AUTHENTIC: { status: 401, retryable: false },
  /** The worker cannot check a provider's delivery now (certificate and postback unreachable, secret not set). */
  WEBHOOK_VERIFICATION_UNAVAILABLE: { status: 503, retryable: true },
  /** An exchange refused a live-sync request (unknown pair, bad parameters). */
  MARKET_SOURCE_REJECTED: { status: 502, retryable: false },
  /** A sanctions list issue older than the active version, loaded without force. */
  LIST_ISSUE_OUTDATED: { status: 409, retryable: false },
  /** A sanctions list source that is not what it claims to be (not SDN Advanced XML, no issue date, truncated). */
  LIST_SOURCE_INVALID: { status: 422, retryable: false },
  /**
   * A list refresh workflow asked to read a source the worker is not configured with (OFAC_REFRESH_SOURCE, a file
   * in OFAC_ISSUE_DIR), or to force a load: only `npm run lists:update -- --force` forces one.
   */
  LIST_SOURCE_NOT_CONFIGURED: { status: 403, retryable: false },
  /** A freeze sync workflow naming a chain other than ethereum or tron, or one twice. */
  FREEZE_SOURCE_UNKNOWN: { status: 422, retryable: false },
  /** A live market sync workflow whose input is not the worker's MARKET_LIVE_* (endpoint, symbols, interval...). */
  MARKET_SYNC_NOT_CONFIGURED: { status: 403, retryable: false },
  /** An API key without the scope the route needs (src/identity/scopes.ts). */
  INSUFFICIENT_SCOPE: { status: 403, retryable: false },
  /** A member whose team role may not do this (src/identity/require-team-role.ts): a role-gated action of a team. */
  INSUFFICIENT_TEAM_ROLE: { status: 403, retryable: false },
  /** Removing or demoting the account's last active admin: the team would have nobody to manage it. */
  LAST_TEAM_ADMIN: { status: 409, retryable: false },
  /** The account already holds MAX_ACTIVE_API_KEYS_PER_ACCOUNT active keys: revoke one first. */
  API_KEY_LIMIT_REACHED: { status: 409, retryable: false },
  /** A policy_id the account does not have (never created, or deleted). */
  POLICY_NOT_FOUND: { status: 404, retryable: false },
  /** The account already keeps MAX_POLICIES_PER_ACCOUNT live policies: delete one first. */
  POLICY_LIMIT_REACHED: { status: 409, retryable: false },
  /** The account already keeps MAX_ACTIVE_MONITORS_PER_ACCOUNT monitors (active or paused): delete one first. */
  MONITOR_LIMIT_REACHED: { status: 409, retryable: false },
  /** The account already keeps MAX_CUSTOM_LABELS_PER_ACCOUNT custom labels: delete one first. */
  CUSTOM_LABEL_LIMIT_REACHED: { status: 409, retryable: false },
  /**
   * A monitor or list-version notice workflow whose own id or input names no stored monitor or list version
   * (monitor:<id> of an existing monitor, list-version:<id> of an existing version and its issue date), or a
   * re-screen request id already recorded for another account or target: it screens and signals nothing.
   */
  MONITOR_WORKFLOW_NOT_AUTHENTIC: { status: 409, retryable: false },
  /**
   * A screening, batch-item, x402 report or batch workflow whose input is not what the api recorded: no hold of that
   * request id, user and amount, no queued job of that user, another target or depth, no live x402 claim of that
   * request id, or a workflow id other than the one the api gives it. Nothing is analysed, charged or released.
   */
  INPUT_NOT_AUTHENTIC: { status: 403, retryable: false },
  /** A charge naming a hold that does not exist for that user, or larger than the hold (credits.sql consume_credits). */
  CHARGE_NOT_HELD: { status: 409, retryable: false },
  /** A job that cannot be scored again: not completed, or stored before scoring evidence was kept. */
  JOB_NOT_RESCORABLE: { status: 409, retryable: false },
  /** An Idempotency-Key already used by this account for a request with another body (a batch). */
  IDEMPOTENCY_KEY_REUSED: { status: 409, retryable: false },
  /** A member whose role may not take the action, or the proposer approving their own proposal (four eyes). */
  CASE_ACTION_FORBIDDEN: { status: 403, retryable: false },
  /** The case's state forbids the action (approving a case with no proposal, assigning a closed case). */
  CASE_STATE_CONFLICT: { status: 409, retryable: false },
  /** An action whose fields are not what the action takes (a workflow update sent by hand). */
  CASE_ACTION_INVALID: { status: 400, retryable: false },
  /** A case workflow whose id or input names no stored case of that account: it records nothing. */
  CASE_WORKFLOW_NOT_AUTHENTIC: { status: 409, retryable: false },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The HTTP status a failure with this code answers; a code outside the vocabulary is a bad gateway. */
export function httpStatusOf(code: string): number {
  return isErrorCode(code) ? ERROR_CODES[code].status : ERROR_CODES.ANALYSIS_FAILED.status;
}
