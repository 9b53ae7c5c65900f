/**
 * Every date a request names (history from/to, a list lookup's as_of, market startTime/endTime in the query string
 * or a body) is read by one rule (src/platform/http/date-params.ts): years 0001 to 9999, else 400 naming the
 * parameter, never a 500 from Postgres and never a silently empty answer for a year nobody means.
 */
import { startTestStack, type TestStack } from '../helpers/test-stack';

const ADDRESS = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
/** The instants just outside the range, as each parameter spells them. */
const TOO_LATE_MS = '253402300800000'; // 10000-01-01T00:00:00Z
const LAST_MS = '253402300799999'; // 9999-12-31T23:59:59.999Z

describe('date parameters outside years 0001 to 9999 are 400s everywhere', () => {
  let stack: TestStack;
  let key: string;

  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
    key = (await stack.createUser()).key;
  });
  afterAll(async () => {
    await stack.stop();
  });

  const get = (path: string) => stack.http('GET', path, { key });
  const q = encodeURIComponent;

  test.each([
    ['from', '+275760-09-13T00:00:00Z'],
    ['from', '0000-01-01'],
    ['to', '10000-01-01'],
    ['to', '+010000-01-01T00:00:00Z'],
    ['from', '-000001-01-01T00:00:00Z'],
    ['from', '0001-01-01T00:00:00+01:00'],
    ['to', '9999-12-31T23:30:00-01:00'],
    ['from', '2024-02-30'],
    ['from', '1'],
    ['to', 'Jan 1 2024'],
  ])('history %s=%s → 400 naming it', async (parameter, value) => {
    const res = await get(`/api/v1/activity?${parameter}=${q(value)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
  });

  test.each([
    ['from=0001-01-01', 'the first day'],
    [`to=${q('9999-12-31T23:59:59.999Z')}`, 'the last millisecond'],
    [`from=${q('2024-01-01T00:00')}&to=${q('2024-01-02T00:00:00+02:00')}`, 'minutes without a zone (UTC), an offset'],
  ])('history %s (%s) → 200', async (query) => {
    const res = await get(`/api/v1/activity?${query}`);
    expect(res.status).toBe(200);
  });

  test.each([
    ['0000-01-01', 400],
    ['10000-01-01', 400],
    ['+10000-01-01', 400],
    ['0001-01-01', 200],
    ['9999-12-31', 200],
  ])('OFAC lookup as_of=%s → %d', async (asOf, status) => {
    const res = await get(`/api/v1/lists/ofac/addresses/${ADDRESS}?as_of=${q(asOf)}`);
    expect(res.status).toBe(status);
    if (status === 400)
      expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'as_of' } });
  });

  test.each([
    ['startTime', TOO_LATE_MS, 400],
    ['endTime', '8640000000000000', 400],
    ['endTime', LAST_MS, 200],
  ])('candles %s=%s → %d', async (parameter, value, status) => {
    const res = await stack.http(
      'GET',
      `/api/v1/market-data/candles?symbol=BTC-USD&interval=1d&${parameter}=${value}`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
  });

  test.each([
    [{ startTime: Number(TOO_LATE_MS) }, 'filters.startTime', 400],
    [{ endTime: TOO_LATE_MS }, 'filters.endTime', 400],
    [{ startTime: 0, endTime: Number(LAST_MS) }, null, 200],
  ])('query filters %p → %s %d', async (times, parameter, status) => {
    const res = await stack.http('POST', '/api/v1/query', {
      headers: { authorization: `Bearer ${key}` },
      body: { connector: 'kraken', dataType: 'candles', filters: { symbol: 'BTC-USD', interval: '1d', ...times } },
    });
    expect(res.status).toBe(status);
    if (parameter) expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
  });
});
