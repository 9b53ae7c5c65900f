import type { PoolClient } from 'pg';
import type { WebhookEventStore, WebhookOutcome } from './webhook-events-store';
import type { WebhookProvider } from './webhook-provider';

/** What processing one provider event did; `duplicate` means an earlier delivery already did it. */
export interface EventResult {
  duplicate: boolean;
  outcome: WebhookOutcome;
  userId: string | null;
  credits: number;
  transactionId: string | null;
  detail: string | null;
}

/** Records the event's outcome in the same transaction as its effect and returns the result. */
export async function recordEventOutcome(
  client: PoolClient,
  events: WebhookEventStore,
  provider: WebhookProvider,
  eventId: string,
  result: Omit<EventResult, 'duplicate'>,
): Promise<EventResult> {
  await events.recordOutcome(client, { provider, eventId, ...result });
  return { duplicate: false, ...result };
}

/** The first processing's record, for a delivery that lost the claim. */
export async function previousResult(
  client: PoolClient,
  events: WebhookEventStore,
  provider: WebhookProvider,
  eventId: string,
): Promise<EventResult> {
  const stored = await events.find(provider, eventId, client);
  return {
    duplicate: true,
    outcome: stored?.outcome ?? 'ignored',
    userId: stored?.userId ?? null,
    credits: stored?.credits ?? 0,
    transactionId: stored?.transactionId ?? null,
    detail: stored?.detail ?? null,
  };
}
