import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import type { UserStore } from './users-store';
import type { WebhookEventStore } from '../platform/webhooks/webhook-events-store';
import { previousResult, settle, type EventResult } from '../platform/webhooks/event-result';
import { readClerkUserEvent } from './clerk-user-event';
import type { ClerkSignedHeaders } from './clerk-webhook-verifier';

export interface ClerkEventDeps {
  pool: Pool;
  users: UserStore;
  webhookEvents: WebhookEventStore;
  /**
   * Marks the user's live monitors deleted in the caller's transaction and returns their ids (their workflows are
   * then sent `stop`). Monitors are another feature: src/app wires src/monitors/stop-user-monitors.ts in.
   */
  stopUserMonitors(client: PoolClient, userId: string): Promise<string[]>;
  /** The monitors the user's deletion stopped, read again when a retried activity finds the event applied. */
  monitorsStoppedWithUser(client: PoolClient, userId: string): Promise<string[]>;
  /** Releases every credit hold of the user in the caller's transaction (billing's releaseUserHolds). */
  releaseUserHolds(client: PoolClient, userId: string): Promise<number>;
}

export interface ClerkEventInput {
  svixId: string;
  deliveredAtMs: number;
  event: { type: string; data: Record<string, unknown>; timestamp?: number };
  /**
   * The delivery as Clerk signed it (body base64, svix-* headers): the worker verifies it again and applies the event
   * read from it. Absent only in workflows started before the worker checked, which it refuses.
   */
  delivery?: { rawBody: string; headers: ClerkSignedHeaders };
}

/** What the event did, and the monitors whose workflows must now be stopped (a deleted user's). */
export interface ClerkEventResult extends EventResult {
  stoppedMonitorIds?: string[];
}

/**
 * Applies one Clerk delivery in one transaction, claimed by svix-id: created/updated upsert the user,
 * deleted deactivates it, revokes its keys, stops its monitors and releases its credit holds (each idempotent, so a
 * second user.deleted changes nothing more).
 */
export async function applyClerkEvent(deps: ClerkEventDeps, input: ClerkEventInput): Promise<ClerkEventResult> {
  return inTransaction(deps.pool, async (client) => {
    const change = readClerkUserEvent(input.event, input.deliveredAtMs);
    if (!(await deps.webhookEvents.claim(client, 'clerk', input.svixId, input.event.type, input.event))) {
      const previous = await previousResult(client, deps.webhookEvents, 'clerk', input.svixId);
      // Applied by an attempt whose completion was lost: its monitors still need their stop.
      if (change.kind !== 'delete' || !previous.userId) return previous;
      return { ...previous, stoppedMonitorIds: await deps.monitorsStoppedWithUser(client, previous.userId) };
    }
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
      const stoppedMonitorIds = await deps.stopUserMonitors(client, r.userId);
      const released = await deps.releaseUserHolds(client, r.userId);
      const detail = [
        r.changed ? 'user deactivated; API keys revoked' : 'user was already deactivated',
        ...(stoppedMonitorIds.length > 0 ? [`${stoppedMonitorIds.length} monitors stopped`] : []),
        ...(released > 0 ? [`${released} held credits released`] : []),
      ].join('; ');
      const changed = r.changed || stoppedMonitorIds.length > 0 || released > 0;
      return { ...(await done(changed ? 'applied' : 'ignored', r.userId, detail)), stoppedMonitorIds };
    }
    const r = await deps.users.applyClerkProfile(client, change);
    return done(
      r.changed ? 'applied' : 'ignored',
      r.userId,
      r.changed ? 'profile saved' : 'a newer change or a deletion was already applied',
    );
  });
}
