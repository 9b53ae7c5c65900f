import type { Pool } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import type { UserStore } from './users-store';
import type { WebhookEventStore } from '../platform/webhooks/webhook-events-store';
import { previousResult, settle, type EventResult } from '../platform/webhooks/event-result';
import { readClerkUserEvent } from './clerk-user-event';

export interface ClerkEventDeps {
  pool: Pool;
  users: UserStore;
  webhookEvents: WebhookEventStore;
}

export interface ClerkEventInput {
  svixId: string;
  deliveredAtMs: number;
  event: { type: string; data: Record<string, unknown>; timestamp?: number };
}

/**
 * Applies one Clerk delivery in one transaction, claimed by svix-id: created/updated upsert the user,
 * deleted deactivates it.
 */
export async function applyClerkEvent(deps: ClerkEventDeps, input: ClerkEventInput): Promise<EventResult> {
  return inTransaction(deps.pool, async (client) => {
    if (!(await deps.webhookEvents.claim(client, 'clerk', input.svixId, input.event.type, input.event))) {
      return previousResult(client, deps.webhookEvents, 'clerk', input.svixId);
    }
    const change = readClerkUserEvent(input.event, input.deliveredAtMs);
    const done = (outcome: 'applied' | 'ignored', userId: string | null, detail: string) =>
      settle(client, deps.webhookEvents, 'clerk', input.svixId, {
        outcome,
        userId,
        credits: 0,
        transactionId: null,
        detail,
      });

    if (change.kind === 'ignore') return done('ignored', null, change.reason);
    if (change.kind === 'delete') {
      const r = await deps.users.deactivateClerkUser(client, change);
      return done(
        r.changed ? 'applied' : 'ignored',
        r.userId,
        r.changed ? 'user deactivated; API keys revoked' : 'user was already deactivated',
      );
    }
    const r = await deps.users.applyClerkProfile(client, change);
    return done(
      r.changed ? 'applied' : 'ignored',
      r.userId,
      r.changed ? 'profile saved' : 'a newer change or a deletion was already applied',
    );
  });
}
