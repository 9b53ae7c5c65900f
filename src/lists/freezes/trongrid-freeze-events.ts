import { AppError } from '../../platform/errors';
import {
  type Classifier,
  createHttpClient,
  HttpGiveUpError,
  jsonStatusRules,
} from '../../platform/http-client/http-client';
import { FREEZE_KINDS } from './evm-freeze-abi';
import { type FreezeEvent, isoSeconds } from './freeze-event';
import { SCREENING_ERRORS } from '../../screening';

/** Tether's TRC-20 USDT emits the same three events as its Ethereum contract. */
export const TRON_FREEZE_EVENT_NAMES = ['AddedBlackList', 'RemovedBlackList', 'DestroyedBlackFunds'] as const;
export type TronFreezeEventName = (typeof TRON_FREEZE_EVENT_NAMES)[number];

/** One item of GET /v1/contracts/{address}/events, the fields read here. */
interface RawEvent {
  block_number?: number;
  block_timestamp?: number;
  event_index?: number;
  event_name?: string;
  transaction_id?: string;
  /** Decoded parameters, by name and by position ("0", "1"); addresses as 0x… (or 41…) hex. */
  result?: Record<string, string>;
}

interface EventsPage {
  success?: boolean;
  error?: string;
  data?: RawEvent[];
  meta?: { fingerprint?: string };
}

export interface TronGridOptions {
  /** TRON_API_URL: TronGrid or anything serving its /v1 API. */
  apiUrl: string;
  /** Sent as TRON-PRO-API-KEY, as the screening client does. */
  apiKey?: string;
  timeoutMs: number;
  /** Events per page (TronGrid's maximum, 200, unless a test pages smaller). */
  pageSize?: number;
  /** Pages read per event name and window; more, and the window ends at the last event read. */
  maxPages?: number;
  fetch?: typeof fetch;
}

export interface EventsRead {
  events: FreezeEvent[];
  /** Set when maxPages ended the read: the block time of the last event read (the rest waits for the next window). */
  truncatedAt: number | null;
}

/** TronGrid's events API, read for the freezes of one contract. */
export interface TronFreezeEvents {
  /** Confirmed events named `name` with block times in [from, to] (ms), oldest first, every page. */
  read(
    contract: string,
    name: TronFreezeEventName,
    from: number,
    to: number,
    signal?: AbortSignal,
  ): Promise<EventsRead>;
}

/** TronGrid answers some refusals with HTTP 200 and `success: false`. */
const classifyPage: Classifier<EventsPage> = (answer, where) => {
  const verdict = jsonStatusRules<EventsPage>(answer, where);
  if (verdict.kind === 'ok' && verdict.value.success === false)
    return { kind: 'fail', reason: `${where}: ${String(verdict.value.error ?? 'success: false').slice(0, 200)}` };
  return verdict;
};

function decode(raw: RawEvent, addressOf: (raw: string) => string | null): FreezeEvent | null {
  const kind = raw.event_name ? FREEZE_KINDS[raw.event_name] : undefined;
  const result = raw.result ?? {};
  const who = result._user ?? result._blackListedUser ?? result['0'];
  const address = who ? addressOf(who) : null;
  if (!kind || !address || raw.block_number === undefined || raw.block_timestamp === undefined) return null;
  if (!raw.transaction_id) return null;
  const balance = result._balance ?? result['1'];
  return {
    chain: 'tron',
    token: 'USDT',
    kind,
    address,
    ...(kind === 'destroy' ? { amount: /^\d+$/.test(balance ?? '') ? BigInt(balance!) : 0n } : {}),
    block: BigInt(raw.block_number),
    index: raw.event_index ?? 0,
    at: isoSeconds(raw.block_timestamp),
    tx: raw.transaction_id.toLowerCase(),
  };
}

/**
 * GET {apiUrl}/v1/contracts/{contract}/events?event_name=…&only_confirmed=true&min_block_timestamp=…
 * &max_block_timestamp=…&order_by=block_timestamp,asc&limit=200, then `fingerprint` (meta.fingerprint) for each
 * next page. Confirmed only: a confirmed TRON block is final, so nothing read can be taken back.
 */
export function createTronFreezeEvents(
  options: TronGridOptions,
  addressOf: (raw: string) => string | null,
): TronFreezeEvents {
  const http = createHttpClient({
    name: 'trongrid',
    // Errors name the path below it: a TronGrid-compatible endpoint may hold its key in the path.
    baseUrl: options.apiUrl,
    timeoutMs: options.timeoutMs,
    ratePerSecond: 10,
    headers: options.apiKey ? { 'TRON-PRO-API-KEY': options.apiKey } : undefined,
    fetch: options.fetch,
  });
  const pageSize = options.pageSize ?? 200;
  const maxPages = options.maxPages ?? 50;

  async function page(contract: string, query: Record<string, string>, signal?: AbortSignal): Promise<EventsPage> {
    const url = new URL(`${options.apiUrl.replace(/\/$/, '')}/v1/contracts/${contract}/events`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    try {
      return await http.request<EventsPage>({ url, signal, classify: classifyPage });
    } catch (err) {
      if (!(err instanceof HttpGiveUpError)) throw err;
      throw new AppError(SCREENING_ERRORS.CHAIN_UNAVAILABLE, err.message, {
        retryable: err.details.retryableLater && !err.details.misconfigured,
      });
    }
  }

  return {
    async read(contract, name, from, to, signal) {
      const query: Record<string, string> = {
        event_name: name,
        only_confirmed: 'true',
        min_block_timestamp: String(from),
        max_block_timestamp: String(to),
        order_by: 'block_timestamp,asc',
        limit: String(pageSize),
      };
      const events: FreezeEvent[] = [];
      let lastSeen: number | null = null;
      let fingerprint: string | undefined;
      for (let pages = 1; ; pages++) {
        const answer = await page(contract, fingerprint ? { ...query, fingerprint } : query, signal);
        const data = answer.data ?? [];
        for (const raw of data) {
          const event = decode(raw, addressOf);
          if (event) events.push(event);
          if (raw.block_timestamp !== undefined) lastSeen = raw.block_timestamp;
        }
        const next = answer.meta?.fingerprint;
        // No fingerprint (or the same again, or an empty page): the last page.
        if (!next || next === fingerprint || data.length === 0) return { events, truncatedAt: null };
        if (pages >= maxPages) return { events, truncatedAt: lastSeen };
        fingerprint = next;
      }
    },
  };
}
