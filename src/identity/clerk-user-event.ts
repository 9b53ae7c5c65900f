/** The user change a Clerk event describes, read from the event's data (Clerk's user object). */
export type ClerkUserChange =
  | { kind: 'upsert'; clerkUserId: string; email: string | null; displayName: string | null; at: string }
  | { kind: 'delete'; clerkUserId: string; at: string }
  | { kind: 'ignore'; reason: string };

interface EmailAddress {
  id?: unknown;
  email_address?: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

function primaryEmail(data: Record<string, unknown>): string | null {
  const list = Array.isArray(data.email_addresses) ? (data.email_addresses as EmailAddress[]) : [];
  const primary = list.find((e) => e.id === data.primary_email_address_id) ?? list[0];
  return str(primary?.email_address)?.toLowerCase() ?? null;
}

/**
 * `at` orders changes to one user: the profile's updated_at (ms) when present, else the event's
 * timestamp, else the delivery time. A later change wins; deletion is final.
 */
export function readClerkUserEvent(
  event: { type: string; data: Record<string, unknown>; timestamp?: number },
  deliveredAtMs: number,
): ClerkUserChange {
  const clerkUserId = str(event.data.id);
  if (!['user.created', 'user.updated', 'user.deleted'].includes(event.type))
    return { kind: 'ignore', reason: `event type ${event.type} is not handled` };
  if (!clerkUserId) return { kind: 'ignore', reason: 'the event names no user id' };
  const ms =
    [event.data.updated_at, event.timestamp, deliveredAtMs].find(
      (v): v is number => typeof v === 'number' && Number.isFinite(v),
    ) ?? deliveredAtMs;
  const at = new Date(ms).toISOString();
  if (event.type === 'user.deleted') return { kind: 'delete', clerkUserId, at };
  const name =
    [str(event.data.first_name), str(event.data.last_name)].filter(Boolean).join(' ') || str(event.data.username);
  return { kind: 'upsert', clerkUserId, email: primaryEmail(event.data), displayName: name || null, at };
}
