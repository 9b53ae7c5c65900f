import { bucketStart, BUCKET_ORIGIN_MS } from '../../src/market/domain/intervals';
import { mergeSpans, subtractSpans, wholeBucketsInside } from '../../src/market/domain/ranges';
import { planRollups } from '../../src/market/domain/rollup-plan';

const t = (iso: string) => Date.parse(iso);
const span = (a: string, b: string) => ({ start: t(a), end: t(b) });
const iso = (s: { start: number; end: number }) => [new Date(s.start).toISOString(), new Date(s.end).toISOString()];

describe('bucket alignment', () => {
  test('weeks open on Monday 00:00 UTC, not on the epoch’s Thursday', () => {
    expect(new Date(BUCKET_ORIGIN_MS).getUTCDay()).toBe(1);
    expect(new Date(bucketStart(t('2024-09-01T12:00:00Z'), '1w')).toISOString()).toBe('2024-08-26T00:00:00.000Z');
    expect(new Date(bucketStart(t('2024-09-02T00:00:00Z'), '1w')).toISOString()).toBe('2024-09-02T00:00:00.000Z');
    expect(new Date(bucketStart(t('1970-01-01T00:00:00Z'), '1w')).toISOString()).toBe('1969-12-29T00:00:00.000Z');
  });

  test('4h buckets open at 00/04/08/12/16/20 UTC', () => {
    expect(new Date(bucketStart(t('2024-09-02T07:59:59Z'), '4h')).toISOString()).toBe('2024-09-02T04:00:00.000Z');
  });
});

describe('spans', () => {
  test('merge joins overlapping and touching spans', () => {
    expect(
      mergeSpans([
        span('2024-01-03', '2024-01-04'),
        span('2024-01-01', '2024-01-02'),
        span('2024-01-02', '2024-01-03'),
      ]).map(iso),
    ).toEqual([['2024-01-01T00:00:00.000Z', '2024-01-04T00:00:00.000Z']]);
  });

  test('whole buckets only: a partly known bucket at either edge is left out', () => {
    expect(wholeBucketsInside([span('2024-09-01T00:00:00Z', '2024-10-01T00:00:00Z')], '1w').map(iso)).toEqual([
      ['2024-09-02T00:00:00.000Z', '2024-09-30T00:00:00.000Z'],
    ]);
    expect(wholeBucketsInside([span('2024-09-03T00:00:00Z', '2024-09-08T00:00:00Z')], '1w')).toEqual([]);
  });

  test('subtract cuts holes', () => {
    expect(subtractSpans([span('2024-01-01', '2024-01-10')], [span('2024-01-03', '2024-01-05')]).map(iso)).toEqual([
      ['2024-01-01T00:00:00.000Z', '2024-01-03T00:00:00.000Z'],
      ['2024-01-05T00:00:00.000Z', '2024-01-10T00:00:00.000Z'],
    ]);
  });
});

describe('planRollups', () => {
  test(
    'native intervals are never rebuilt; coarser ones come from the next finer served ' +
      'interval where it is wholly known',
    () => {
      // Like BTC-USD: 1h until 2023-01-07 09:00, 15m for 2023-01..09.
      const plan = planRollups({
        '1h': [span('2013-10-06T21:00:00Z', '2023-01-07T09:00:00Z')],
        '15m': [span('2023-01-01T00:00:00Z', '2023-10-01T00:00:00Z')],
      });
      expect(plan.steps.map((s) => s.interval)).toEqual(['30m', '1h', '4h', '1d', '1w']);
      const hour = plan.steps.find((s) => s.interval === '1h');
      expect(hour?.from).toBe('30m');
      expect(hour?.spans.map(iso)).toEqual([['2023-01-07T09:00:00.000Z', '2023-10-01T00:00:00.000Z']]);
      expect(plan.coverage['1h'].map(iso)).toEqual([['2013-10-06T21:00:00.000Z', '2023-10-01T00:00:00.000Z']]);
      expect(plan.coverage['1w'].map(iso)).toEqual([['2013-10-07T00:00:00.000Z', '2023-09-25T00:00:00.000Z']]);
      expect(plan.coverage['1m']).toEqual([]);
    },
  );

  test('an unknown stretch between two known ones is not bridged', () => {
    const plan = planRollups({
      '1m': [
        span('2024-01-01T00:00:00Z', '2024-01-01T10:00:00Z'),
        span('2024-01-02T00:00:00Z', '2024-01-02T10:00:00Z'),
      ],
    });
    expect(plan.coverage['1d']).toEqual([]);
    expect(plan.coverage['4h'].map(iso)).toEqual([
      ['2024-01-01T00:00:00.000Z', '2024-01-01T08:00:00.000Z'],
      ['2024-01-02T00:00:00.000Z', '2024-01-02T08:00:00.000Z'],
    ]);
  });

  test('a refresh window limits the steps to the buckets it touches', () => {
    const plan = planRollups(
      { '1m': [span('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z')] },
      span('2024-01-10T10:03:00Z', '2024-01-10T10:04:00Z'),
    );
    expect(plan.steps.map((s) => [s.interval, ...s.spans.flatMap(iso)])).toEqual([
      ['5m', '2024-01-10T10:00:00.000Z', '2024-01-10T10:05:00.000Z'],
      ['15m', '2024-01-10T10:00:00.000Z', '2024-01-10T10:15:00.000Z'],
      ['30m', '2024-01-10T10:00:00.000Z', '2024-01-10T10:30:00.000Z'],
      ['1h', '2024-01-10T10:00:00.000Z', '2024-01-10T11:00:00.000Z'],
      ['4h', '2024-01-10T08:00:00.000Z', '2024-01-10T12:00:00.000Z'],
      ['1d', '2024-01-10T00:00:00.000Z', '2024-01-11T00:00:00.000Z'],
      ['1w', '2024-01-08T00:00:00.000Z', '2024-01-15T00:00:00.000Z'],
    ]);
  });
});
