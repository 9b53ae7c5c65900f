import { Router } from 'express';
import type { Pool } from 'pg';
import { z } from 'zod';
import { parseOrThrow } from '../platform/http/errors';
import { calendarDateParam } from '../platform/http/date-params';
import { requireScope } from '../identity';
import type { ListStore, ListVersion } from './list-store';
import type { listsResponse, sanctionsLookupResponse } from './lists-views';
import { listedAddress } from './ofac/sdn-address';
import { publicSource } from './public-source';

export interface ListsRouterDeps {
  pool: Pool;
  lists: ListStore;
  /** OFAC refresh as configured: a version older than maxAgeDays is stale only while refresh is on. */
  ofacRefresh: { enabled: boolean; everyHours: number | null; source: string | null; maxAgeDays: number };
  now?: () => Date;
}

const DAY_MS = 86_400_000;
/** A calendar date between 0001-01-01 and 9999-12-31 that exists (2025-02-30 does not). */
const calendarDate = calendarDateParam('a date as YYYY-MM-DD');

export const sanctionsLookupQuery = z.object({
  as_of: calendarDate.optional(),
  chain: z
    .string({ error: 'a chain name' })
    .regex(/^[a-z0-9-]{2,32}$/, 'a chain name such as ethereum or bitcoin')
    .optional(),
});

const addressParam = z
  .string()
  .regex(/^[A-Za-z0-9:_-]{8,128}$/, 'an address (8 to 128 letters, digits, ":", "_" or "-")');

/** EVM and bech32 addresses are stored lower-cased; every other format is case-sensitive. */
const normalise = (a: string): string =>
  /^(0x[0-9a-f]{40}|(bc|ltc|bnb|tb)1[0-9a-z]+)$/i.test(a) ? a.toLowerCase() : a;

const ageDays = (issueDate: string, now: Date) =>
  Math.max(0, Math.floor((now.getTime() - Date.parse(`${issueDate}T00:00:00Z`)) / DAY_MS));

function versionView(v: ListVersion, now: Date) {
  return {
    version: v.id,
    // Never the URL whole: its userinfo or query may hold a key.
    source: publicSource(v.source),
    issue_date: v.issueDate,
    sha256: v.sha256,
    entries: v.entryCount,
    loaded_at: v.loadedAt.toISOString(),
    age_days: ageDays(v.issueDate, now),
    forced: v.forced,
  };
}

/** Whether the active OFAC version is older than allowed (only meaningful while refresh keeps it fresh). */
export function isStale(active: ListVersion | null, refresh: ListsRouterDeps['ofacRefresh'], now: Date): boolean {
  if (!refresh.enabled) return false;
  return !active || ageDays(active.issueDate, now) > refresh.maxAgeDays;
}

/** GET /api/v1/lists and the as-of lookup of one address (authenticated like every account route). */
export function createListsRouter(deps: ListsRouterDeps): Router {
  const router = Router();
  const now = deps.now ?? (() => new Date());

  router.get('/lists', requireScope('read'), async (_req, res) => {
    const at = now();
    const [active, versions, datasets] = await Promise.all([
      deps.lists.activeVersion('ofac'),
      deps.lists.versions('ofac', 10),
      deps.pool.query<{ name: string; sha256: string; row_count: number; loaded_at: Date }>(
        'SELECT name, sha256, row_count, loaded_at FROM reference_datasets ORDER BY name',
      ),
    ]);
    const sample = active ? await deps.lists.changesOf(active.id, 20) : [];
    const body: z.input<typeof listsResponse> = {
      success: true,
      data: {
        sanctions: [
          {
            list: 'ofac',
            active: active ? versionView(active, at) : null,
            stale: isStale(active, deps.ofacRefresh, at),
            max_age_days: deps.ofacRefresh.maxAgeDays,
            refresh: {
              enabled: deps.ofacRefresh.enabled,
              every_hours: deps.ofacRefresh.everyHours,
              source: deps.ofacRefresh.source === null ? null : publicSource(deps.ofacRefresh.source),
            },
            last_diff: {
              added: active?.added ?? 0,
              removed: active?.removed ?? 0,
              changed: active?.changed ?? 0,
              sample: sample.map((c) => ({
                change: c.change as 'added' | 'removed' | 'changed',
                chain: c.chain,
                address: c.address,
              })),
            },
            history: versions.map((v) => ({
              version: v.id,
              issue_date: v.issueDate,
              sha256: v.sha256,
              loaded_at: v.loadedAt.toISOString(),
              forced: v.forced,
            })),
          },
        ],
        datasets: datasets.rows.map((d) => ({
          list: d.name,
          sha256: d.sha256,
          rows: d.row_count,
          loaded_at: d.loaded_at.toISOString(),
        })),
      },
    };
    res.json(body);
  });

  router.get('/lists/ofac/addresses/:address', requireScope('read'), async (req, res) => {
    const written = normalise(parseOrThrow(z.object({ address: addressParam }), req.params).address);
    const query = parseOrThrow(sanctionsLookupQuery, req.query);
    // With its chain, the address is looked up in the form that chain's entries are stored in (a Bitcoin Cash address
    // written with its prefix or in the legacy form is stored as the bare CashAddr).
    const address = query.chain ? listedAddress(query.chain, written) : written;
    const asOf = query.as_of ?? now().toISOString().slice(0, 10);
    const entries = (await deps.lists.listingsOf('ofac', address, query.chain ? [query.chain] : null)).map((e) => ({
      chain: e.chain,
      sdn_uid: e.sdnUid,
      sdn_name: e.sdnName,
      programs: e.programs,
      designated: e.designated,
      listed_on: e.listedOn,
      delisted_on: e.delistedOn,
      listed_version: e.listedVersion,
      delisted_version: e.delistedVersion,
      listed_as_of: e.listedOn <= asOf && (e.delistedOn === null || e.delistedOn > asOf),
    }));
    const body: z.input<typeof sanctionsLookupResponse> = {
      success: true,
      data: { list: 'ofac', address, as_of: asOf, listed: entries.some((e) => e.listed_as_of), entries },
    };
    res.json(body);
  });

  return router;
}
