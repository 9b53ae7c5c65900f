import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import type { UserStore } from './users-store';
import type { WebhookEventStore } from '../platform/webhooks/webhook-events-store';
import { previousResult, recordEventOutcome, type EventResult } from '../platform/webhooks/event-result';
import { readClerkUserEvent } from './clerk-user-event';
import { readClerkOrgEvent, type ClerkOrgChange } from './clerk-org-event';
import {
  applyClerkMembership,
  applyClerkOrganization,
  deactivateClerkOrganization,
  removeClerkMembership,
  type OrgEventOutcome,
} from './clerk-org-store';
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

/** What the event did, and the monitors whose workflows must now be stopped (a deleted user's or organization's). */
export interface ClerkEventResult extends EventResult {
  stoppedMonitorIds?: string[];
}

type Done = (outcome: 'applied' | 'ignored', userId: string | null, detail: string) => Promise<EventResult>;

/**
 * Applies one Clerk delivery in one transaction, claimed by svix-id: user created/updated upsert the user,
 * deleted deactivates it, revokes its keys, stops its monitors and releases its credit holds (each idempotent, so a
 * second user.deleted changes nothing more). Organization events change the organization's account and its
 * memberships (applyOrgChange); organization.deleted ends the account as user.deleted ends a user's.
 */
export async function applyClerkEvent(deps: ClerkEventDeps, input: ClerkEventInput): Promise<ClerkEventResult> {
  return inTransaction(deps.pool, async (client) => {
    const change =
      readClerkOrgEvent(input.event, input.deliveredAtMs) ?? readClerkUserEvent(input.event, input.deliveredAtMs);
    if (!(await deps.webhookEvents.claim(client, 'clerk', input.svixId, input.event.type, input.event))) {
      const previous = await previousResult(client, deps.webhookEvents, 'clerk', input.svixId);
      // Applied by an attempt whose completion was lost: its monitors still need their stop.
      if ((change.kind !== 'delete' && change.kind !== 'org-delete') || !previous.userId) return previous;
      return { ...previous, stoppedMonitorIds: await deps.monitorsStoppedWithUser(client, previous.userId) };
    }
    const done: Done = (outcome, userId, detail) =>
      recordEventOutcome(client, deps.webhookEvents, 'clerk', input.svixId, {
        outcome,
        userId,
        credits: 0,
        transactionId: null,
        detail,
      });

    switch (change.kind) {
      case 'ignore':
        return done('ignored', null, change.reason);
      case 'delete':
        return endAccount(deps, client, await deps.users.deactivateClerkUser(client, change), 'user', done);
      case 'org-delete': {
        const r = await deactivateClerkOrganization(client, change);
        return endAccount(deps, client, { userId: r.accountId, changed: r.changed }, 'organization', done);
      }
      case 'upsert': {
        const r = await deps.users.applyClerkProfile(client, change);
        return done(
          r.changed ? 'applied' : 'ignored',
          r.userId,
          r.changed ? 'profile saved' : 'a newer change or a deletion was already applied',
        );
      }
      default: {
        const r = await applyOrgChange(client, change);
        return done(r.changed ? 'applied' : 'ignored', r.accountId, r.detail);
      }
    }
  });
}

/** An organization or membership change, recorded under the organization's account. */
function applyOrgChange(
  client: PoolClient,
  change: Extract<ClerkOrgChange, { kind: 'org-upsert' | 'member-upsert' | 'member-remove' }>,
): Promise<OrgEventOutcome> {
  if (change.kind === 'org-upsert') return applyClerkOrganization(client, change);
  if (change.kind === 'member-upsert') return applyClerkMembership(client, change);
  return removeClerkMembership(client, change);
}

/**
 * What follows a deactivated account (a deleted user or organization), in the same transaction: its monitors are
 * stopped (their workflows are then sent `stop`) and its credit holds released.
 */
async function endAccount(
  deps: ClerkEventDeps,
  client: PoolClient,
  r: { userId: string; changed: boolean },
  what: 'user' | 'organization',
  done: Done,
): Promise<ClerkEventResult> {
  const stoppedMonitorIds = await deps.stopUserMonitors(client, r.userId);
  const released = await deps.releaseUserHolds(client, r.userId);
  const detail = [
    r.changed ? `${what} deactivated; API keys revoked` : `${what} was already deactivated`,
    ...(stoppedMonitorIds.length > 0 ? [`${stoppedMonitorIds.length} monitors stopped`] : []),
    ...(released > 0 ? [`${released} held credits released`] : []),
  ].join('; ');
  const changed = r.changed || stoppedMonitorIds.length > 0 || released > 0;
  return { ...(await done(changed ? 'applied' : 'ignored', r.userId, detail)), stoppedMonitorIds };
}
