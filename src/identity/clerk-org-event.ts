import { teamRoleOf } from './org-claims';
import type { TeamRole } from './team';

/**
 * The team change a Clerk organization event describes (Clerk's documented event names: organization.created /
 * updated / deleted, organizationMembership.created / updated / deleted), read from the event's data (an Organization
 * object, or an OrganizationMembership with `organization` and `public_user_data`).
 */
export type ClerkOrgChange =
  | { kind: 'org-upsert'; clerkOrgId: string; name: string | null; at: string }
  | { kind: 'org-delete'; clerkOrgId: string; at: string }
  | {
      kind: 'member-upsert';
      clerkOrgId: string;
      clerkUserId: string;
      role: TeamRole;
      email: string | null;
      displayName: string | null;
      at: string;
    }
  | { kind: 'member-remove'; clerkOrgId: string; clerkUserId: string; at: string }
  | { kind: 'ignore'; reason: string };

const ORGANIZATION_EVENTS = ['organization.created', 'organization.updated', 'organization.deleted'];
const MEMBERSHIP_EVENTS = [
  'organizationMembership.created',
  'organizationMembership.updated',
  'organizationMembership.deleted',
];

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * `at` orders changes to one organization or membership (compared with the stored synced_at, so a late older
 * delivery changes nothing). A creation or update: the object's updated_at, else the event's timestamp, else the
 * delivery time. A deletion: the event's timestamp (when it was deleted; the object's updated_at is its last change
 * before that), never earlier than the object's updated_at.
 */
function eventTime(
  event: { type: string; data: Record<string, unknown>; timestamp?: number },
  deliveredAtMs: number,
): string {
  const updatedAt = finite(event.data.updated_at) ? event.data.updated_at : null;
  const happened = finite(event.timestamp) ? event.timestamp : deliveredAtMs;
  const ms = event.type.endsWith('.deleted') ? Math.max(happened, updatedAt ?? happened) : (updatedAt ?? happened);
  return new Date(ms).toISOString();
}

/** Null when the event is not an organization event (user events are clerk-user-event.ts's). */
export function readClerkOrgEvent(
  event: { type: string; data: Record<string, unknown>; timestamp?: number },
  deliveredAtMs: number,
): ClerkOrgChange | null {
  const at = eventTime(event, deliveredAtMs);
  if (ORGANIZATION_EVENTS.includes(event.type)) {
    const clerkOrgId = str(event.data.id);
    if (!clerkOrgId) return { kind: 'ignore', reason: 'the event names no organization id' };
    if (event.type === 'organization.deleted') return { kind: 'org-delete', clerkOrgId, at };
    return { kind: 'org-upsert', clerkOrgId, name: str(event.data.name), at };
  }
  if (!MEMBERSHIP_EVENTS.includes(event.type)) return null;
  const clerkOrgId = str(obj(event.data.organization).id);
  const person = obj(event.data.public_user_data);
  const clerkUserId = str(person.user_id);
  if (!clerkOrgId || !clerkUserId)
    return { kind: 'ignore', reason: 'the membership names no organization.id or public_user_data.user_id' };
  if (event.type === 'organizationMembership.deleted') return { kind: 'member-remove', clerkOrgId, clerkUserId, at };
  const name = [str(person.first_name), str(person.last_name)].filter(Boolean).join(' ');
  return {
    kind: 'member-upsert',
    clerkOrgId,
    clerkUserId,
    role: teamRoleOf(event.data.role),
    // Clerk's identifier is the email address the person signs in with (or a phone number or username).
    email: str(person.identifier)?.includes('@') ? (str(person.identifier) as string).toLowerCase() : null,
    displayName: name || null,
    at,
  };
}
