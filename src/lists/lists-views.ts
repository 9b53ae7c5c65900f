import { z } from 'zod';

const version = z.object({
  version: z.int(),
  source: z.string().describe('Where the issue was read: a file, or a URL without credentials, query or fragment'),
  issue_date: z.iso.date(),
  sha256: z.string(),
  entries: z.int().min(0),
  loaded_at: z.iso.datetime({ offset: true }),
  age_days: z.int().min(0).describe('Days since the issue date'),
  forced: z.boolean().describe('Loaded over a newer version on purpose'),
});

/** GET /api/v1/lists: every list the answers are screened against. */
export const listsResponse = z.object({
  success: z.literal(true),
  data: z.object({
    sanctions: z.array(
      z.object({
        list: z.string(),
        active: version.nullable(),
        stale: z.boolean().describe('Older than max_age_days while refresh is on'),
        max_age_days: z.int().min(1),
        refresh: z.object({
          enabled: z.boolean(),
          every_hours: z.number().nullable(),
          source: z.string().nullable().describe('OFAC_REFRESH_SOURCE, a URL without credentials, query or fragment'),
        }),
        last_diff: z.object({
          added: z.int().min(0),
          removed: z.int().min(0),
          changed: z.int().min(0),
          sample: z.array(
            z.object({ change: z.enum(['added', 'removed', 'changed']), chain: z.string(), address: z.string() }),
          ),
        }),
        history: z.array(
          version.pick({ version: true, issue_date: true, sha256: true, loaded_at: true, forced: true }),
        ),
      }),
    ),
    datasets: z.array(
      z.object({
        list: z.string(),
        sha256: z.string(),
        rows: z.int().min(0),
        loaded_at: z.iso.datetime({ offset: true }),
      }),
    ),
  }),
});

/** GET /api/v1/lists/ofac/addresses/:address: was this address listed on a date, and every listing it had. */
export const sanctionsLookupResponse = z.object({
  success: z.literal(true),
  data: z.object({
    list: z.literal('ofac'),
    address: z.string(),
    as_of: z.iso.date(),
    listed: z.boolean().describe('Listed on as_of: listed on or before it and not delisted by then'),
    entries: z.array(
      z.object({
        chain: z.string(),
        sdn_uid: z.string(),
        sdn_name: z.string().nullable(),
        programs: z.array(z.string()),
        designated: z.iso.date().nullable(),
        listed_on: z.iso.date(),
        delisted_on: z.iso.date().nullable(),
        listed_version: z.int(),
        delisted_version: z.int().nullable(),
        listed_as_of: z.boolean(),
      }),
    ),
  }),
});
