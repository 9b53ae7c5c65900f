import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cassette } from './replay-server';

/**
 * The composed TronGrid event pages of test/fixtures/tron/trongrid-events (see its SOURCES.md) as cassettes: the
 * exact queries the freeze reader sends for the fixtures' window, pages of two.
 */
export const TRON_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** 2025-10-01T00:00:00Z: where the reader starts (FREEZES_TRON_START_AT). */
export const WINDOW_START = 1_759_276_800_000;
/** The clock the first read runs at (06:00); it reads up to two minutes before it. */
export const FIRST_NOW = WINDOW_START + 6 * 3_600_000;
export const FIRST_END = FIRST_NOW - 120_000;
export const PAGE_SIZE = 2;

export const ADDRESSES = {
  /** Added, then removed, in the window. */
  addedThenRemoved: 'TM6sH8pTBF8jsKWqkjxLbMUpbbrLDc4qhd',
  added: 'TTvEw2yFC7bUhPyhKGqFxhyp4ypbsDgKnH',
  /** Added on the second page. */
  addedOnPageTwo: 'TJKciYRQYGt1RMKAqyiKX7HhTj22kykThW',
  /** A shipped row (blacklisted 2020-06-26, 663548.114002 USDT destroyed): 1.5 USDT destroyed, then removed. */
  shipped: 'TVE2XCeDRqbLQQQhbcp6g6vit52zLgYzzT',
} as const;

export const page = (name: string): unknown =>
  JSON.parse(
    readFileSync(join(__dirname, '..', 'fixtures', 'tron', 'trongrid-events', `contract-events__${name}.json`), 'utf8'),
  );

export function eventsQuery(eventName: string, from: number, to: number, fingerprint?: string) {
  return {
    event_name: eventName,
    only_confirmed: 'true',
    min_block_timestamp: String(from),
    max_block_timestamp: String(to),
    order_by: 'block_timestamp,asc',
    limit: String(PAGE_SIZE),
    ...(fingerprint ? { fingerprint } : {}),
  };
}

const get = (query: Record<string, string>, body: unknown): Cassette => ({
  request: { method: 'GET', path: `/v1/contracts/${TRON_USDT}/events`, query },
  response: { body },
});

/** The first window's answers: AddedBlackList over two pages, RemovedBlackList, DestroyedBlackFunds. */
export function firstWindowCassettes(): Cassette[] {
  const first = page('added-blacklist-page-1') as { meta: { fingerprint: string } };
  return [
    get(eventsQuery('AddedBlackList', WINDOW_START, FIRST_END), first),
    get(eventsQuery('AddedBlackList', WINDOW_START, FIRST_END, first.meta.fingerprint), page('added-blacklist-page-2')),
    get(eventsQuery('RemovedBlackList', WINDOW_START, FIRST_END), page('removed-blacklist')),
    get(eventsQuery('DestroyedBlackFunds', WINDOW_START, FIRST_END), page('destroyed-black-funds')),
  ];
}

/** A later window with nothing in it, for each event name. */
export function emptyWindowCassettes(from: number, to: number): Cassette[] {
  return ['AddedBlackList', 'RemovedBlackList', 'DestroyedBlackFunds'].map((name) =>
    get(eventsQuery(name, from, to), page('empty')),
  );
}
