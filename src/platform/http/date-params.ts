import { z } from 'zod';

/**
 * The instants a request may name: years 0001 to 9999 (UTC), what ISO 8601 writes with four digits and what every
 * store here holds. JavaScript reads +275760-09-13 and 0000-01-01 happily; Postgres refuses the first (a 500 if it
 * got that far), and neither is a date anyone means.
 */
export const EARLIEST_INSTANT_MS = -62_135_596_800_000; // 0001-01-01T00:00:00.000Z
export const LATEST_INSTANT_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** A date, optionally with a time (minutes, seconds, fraction) and a zone (Z or ±hh:mm); no zone means UTC. */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether year-month-day names a day that exists in years 0001 to 9999 (2025-02-30 does not). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < 1 || year > 9999) return false;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An ISO 8601 date or date-time within years 0001 to 9999, as an instant; null for anything else. */
export function parseInstant(text: string): Date | null {
  const match = ISO_INSTANT.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, , , zone] = match;
  if (!isCalendarDay(Number(year), Number(month), Number(day))) return null;
  // A time without a zone is read as UTC, not as wherever this server happens to run.
  const ms = Date.parse(hour !== undefined && zone === undefined ? `${text}Z` : text);
  if (Number.isNaN(ms) || ms < EARLIEST_INSTANT_MS || ms > LATEST_INSTANT_MS) return null;
  return new Date(ms);
}

/** A calendar date YYYY-MM-DD within years 0001 to 9999 that exists. */
export function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  return match !== null && isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/**
 * A query parameter naming an instant: an ISO 8601 date or date-time in years 0001 to 9999, read as a Date.
 * Anything else is a 400 naming the parameter with `expected`.
 */
export function instantParam(expected: string) {
  return z
    .string({ error: expected })
    .transform((text, ctx) => {
      const instant = parseInstant(text);
      if (instant) return instant;
      ctx.addIssue({ code: 'custom', message: expected });
      return z.NEVER;
    })
    .meta({ description: `${expected}, in years 0001 to 9999; UTC unless it carries an offset` });
}

/** A query parameter naming a calendar day (YYYY-MM-DD, years 0001 to 9999), kept as that text. */
export function calendarDateParam(expected = 'a date as YYYY-MM-DD') {
  // The regex is for the OpenAPI document's pattern; zod still runs the refine after it failed (isCalendarDate
  // answers false for any text, never throws).
  return z.string({ error: expected }).regex(ISO_DATE, expected).refine(isCalendarDate, expected);
}
