/** "2024-01-01 00:00": the dashboard states instants in UTC, like the API, so figures can be compared with it. */
export function utcMinute(iso: string | number | Date): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toISOString().slice(0, 16).replace('T', ' ');
}

/** A stored instant for a person, or a dash when there is none (never used, not revoked). */
export const utcMinuteOrDash = (iso: string | null | undefined): string => (iso ? `${utcMinute(iso)} UTC` : '—');

/** "09:05:12 UTC" for events of the last moments (the live credit feed). */
export function utcClock(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(11, 19)} UTC`;
}
