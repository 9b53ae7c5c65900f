import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDailyCloses } from '../../src/screening/engine/daily-closes';
import { loadPriceBook, type PriceBook } from '../../src/screening/engine/prices';
import { createUsdPricer, type StoredCloses } from '../../src/screening/engine/usd-pricer';

const pricesDir = path.join(__dirname, '..', '..', 'data', 'prices');
const book = loadPriceBook(path.join(pricesDir, 'usd-reference-prices.json'));
const at = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;

/** Stored closes of one market, as market_candles would give them. */
const storedOnly = (symbol: string, points: { at: number; usd: number }[]): StoredCloses => ({
  seriesFor: async (asset) => (symbol.startsWith(`${asset}-`) ? [{ symbol, connector: 'binance', points }] : []),
});

describe('USD reference prices by time', () => {
  test.each([
    // The tron fixture's TRX transfer (block 2025-09-03T15:52:27Z) takes the close of 2025-09-02.
    ['TRX', '2025-09-03T15:52:27Z', 0.338015, '2025-09-03T00:00:00.000Z'],
    ['BNB', '2025-10-13T12:00:00Z', 1303.12, '2025-10-13T00:00:00.000Z'],
    ['XRP', '2024-12-03T00:00:00Z', 2.7138, '2024-12-03T00:00:00.000Z'],
    // After the series ends, the last close stands (its as_of says how old it is).
    ['XRP', '2026-11-23T09:00:00Z', 2.1076, '2025-11-20T00:00:00.000Z'],
  ])('when %s is valued at %s, then the daily close at or before that moment is used', (symbol, when, usd, asOf) => {
    // Act
    const price = book.usdPriceAt(symbol, at(when));
    // Assert
    expect(price).toEqual({ usd, asOf, source: expect.stringContaining('KaushalParkar/dataset') });
  });

  test(
    'when a BNB transfer predates the shipped series, then ' + 'it is unpriced rather than valued at a later close',
    () => {
      expect(book.usdPriceAt('BNB', at('2021-05-01T00:00:00Z'))).toBeNull();
    },
  );

  test.each(['BNB', 'TRX', 'XRP'])(
    'when the shipped %s closes are read, then every day is present and opens where the previous day closed',
    (symbol) => {
      // Arrange
      const csv = readFileSync(path.join(pricesDir, 'daily-closes', `${symbol}-USD.csv`), 'utf8');
      const rows = csv
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(','));
      // Act
      const points = parseDailyCloses(csv, symbol);
      // Assert: no missing day; an open more than 1 % off the previous close would be a copying error
      expect(points.every((p, i) => i === 0 || p.at - points[i - 1]!.at === DAY)).toBe(true);
      const jumps = rows.slice(1).filter((r, i) => Math.abs(Number(r[1]) / Number(rows[i]![2]) - 1) > 0.01);
      expect(jumps.map((r) => r[0])).toEqual(symbol === 'XRP' ? ['2024-12-06'] : []);
    },
  );
});

describe('stored closes against the reference', () => {
  const reference: PriceBook = book;

  test(
    'when market_candles holds a BNB close an hour before the transfer, ' +
      'then that close is used, not the daily reference',
    async () => {
      // Arrange
      const transfer = at('2025-10-13T12:00:00Z');
      const pricer = createUsdPricer(reference, storedOnly('BNB-USDT', [{ at: transfer - 3_600_000, usd: 1250.5 }]));
      // Act
      const price = await pricer.priceAt('BNB', transfer);
      // Assert
      expect(price).toEqual({
        usd: 1250.5,
        asOf: '2025-10-13T11:00:00.000Z',
        source: 'binance BNB-USDT close (market_candles)',
      });
    },
  );

  test(
    'when the stored series ended long before and the ' + 'reference has a later close, then the reference is used',
    async () => {
      // Arrange
      const pricer = createUsdPricer(reference, storedOnly('BNB-USDT', [{ at: at('2024-01-01T00:00:00Z'), usd: 300 }]));
      // Act
      const price = await pricer.priceAt('BNB', at('2025-10-13T12:00:00Z'));
      // Assert
      expect(price?.usd).toBe(1303.12);
    },
  );

  test('when only a stored close after the transfer exists, then it is not used (no look-ahead)', async () => {
    // Arrange
    const transfer = at('2025-10-13T12:00:00Z');
    const pricer = createUsdPricer(reference, storedOnly('BNB-USD', [{ at: transfer + 60_000, usd: 999 }]));
    // Act
    const price = await pricer.priceAt('BNB', transfer);
    // Assert
    expect(price?.usd).toBe(1303.12);
  });
});
