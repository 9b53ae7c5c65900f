/**
 * A provider's name as the feature that serves its webhook declares it: the `provider` label of the webhook metrics,
 * the Provider search attribute of its event workflows and `webhook_events.provider`. Plain text here, so that the
 * platform names no provider; each feature keeps its own as a constant (its WebhookProviderDeclaration).
 */
export type WebhookProvider = string;

/**
 * A webhook endpoint a feature serves, as data its FeatureModule lists: the composition root maps each POST to
 * `path` to `provider`, which is how a delivery is counted under its provider without the platform naming one.
 */
export interface WebhookProviderDeclaration {
  readonly provider: WebhookProvider;
  /** The endpoint's path exactly as its route is mounted (POST). */
  readonly path: string;
}
