import { CandleFileError, parseCandleFile, parseOffsetDateTime } from '../../src/market/domain/candle-files';

describe('parseOffsetDateTime (Binance export close times, local time with an offset)', () => {
  test.each([
    ['2024-12-01 00:00:59.999000+01:00', Date.UTC(2024, 10, 30, 23, 0, 59, 999)],
    ['2024-07-01 02:14:59.999000+02:00', Date.UTC(2024, 6, 1, 0, 14, 59, 999)],
    ['2024-03-31 03:14:59.999+02:00', Date.UTC(2024, 2, 31, 1, 14, 59, 999)],
    ['2024-01-01T00:00:00Z', Date.UTC(2024, 0, 1)],
    ['2024-01-01 00:00:00-05:30', Date.UTC(2024, 0, 1, 5, 30)],
  ])('%s', (text, expected) => expect(parseOffsetDateTime(text)).toBe(expected));

  test('a time without an offset is refused (it would be read in the server’s zone)', () => {
    expect(() => parseOffsetDateTime('2024-12-01 00:00:59.999')).toThrow(CandleFileError);
  });
});

describe('parseCandleFile', () => {
  test('Kraken OHLCVT: seconds, decimals kept as written (scientific notation too)', () => {
    const rows = parseCandleFile(
      '1672531200,10.88,10.88,10.88,10.88,1E+1,2\n1672532100,10.87,10.88,10.85,10.88,180.83422291,5\n',
      'kraken-ohlcvt',
      '15m',
    );
    expect(rows).toEqual([
      {
        openTime: 1672531200000,
        open: '10.88',
        high: '10.88',
        low: '10.88',
        close: '10.88',
        volume: '1E+1',
        trades: 2,
      },
      {
        openTime: 1672532100000,
        open: '10.87',
        high: '10.88',
        low: '10.85',
        close: '10.88',
        volume: '180.83422291',
        trades: 5,
      },
    ]);
  });

  test('Binance export: open = close + 1 ms − interval, across a DST change (+02:00 → +01:00)', () => {
    const text =
      'open,high,low,close,volume,quote_volume,trades,close_datetime\n' +
      '1,2,0.5,1.5,10,15,3,2024-10-27 02:59:59.999000+02:00\n' +
      '1.5,2,1,1.8,11,16,4,2024-10-27 02:14:59.999000+01:00\n';
    expect(parseCandleFile(text, 'binance-export', '15m').map((c) => new Date(c.openTime).toISOString())).toEqual([
      '2024-10-27T00:45:00.000Z',
      '2024-10-27T01:00:00.000Z',
    ]);
  });

  test('Binance kline archive: header optional, microsecond opens (2025+) read as ms', () => {
    const row = (t: number) => `${t},0.1231,0.1232,0.1230,0.1231,137407.3,${t + 59_999},16914.52,87,57424.5,7072.1,0`;
    const ms = parseCandleFile(
      'open_time,open,high,low,close,volume,close_time,quote_volume,count,' +
        `taker_buy_volume,taker_buy_quote_volume,ignore\n${row(1725148800000)}`,
      'binance-kline',
      '1m',
    );
    const us = parseCandleFile(row(1735689600000000), 'binance-kline', '1m');
    expect(ms[0]).toMatchObject({ openTime: 1725148800000, trades: 87, volume: '137407.3' });
    expect(us[0]?.openTime).toBe(1735689600000);
  });

  test.each([
    ['a row off the interval grid', '1672531260,1,1,1,1,1,1', /not on the 15m grid/],
    ['rows out of order', '1672532100,1,1,1,1,1,1\n1672531200,1,1,1,1,1,1', /line 2: .*not after the previous row/],
    ['a duplicate bucket', '1672531200,1,1,1,1,1,1\n1672531200,1,1,1,1,1,1', /line 2/],
    ['a high below the close', '1672531200,1,1,1,2,1,1', /do not bound/],
    ['a negative volume', '1672531200,1,1,1,1,-3,1', /volume/],
    ['a missing column', '1672531200,1,1,1,1,1', /expected 7 columns/],
    ['a price that is not a number', '1672531200,abc,1,1,1,1,1', /open "abc"/],
    ['an empty file', '\n', /no candles/],
  ])('refuses %s, naming the line', (_name, text, message) => {
    expect(() => parseCandleFile(text, 'kraken-ohlcvt', '15m')).toThrow(message);
  });
});
