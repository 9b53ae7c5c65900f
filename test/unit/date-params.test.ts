import {
  EARLIEST_INSTANT_MS,
  isCalendarDate,
  LATEST_INSTANT_MS,
  parseInstant,
} from '../../src/platform/http/date-params';

describe('date parameters: ISO 8601 in years 0001 to 9999', () => {
  test.each([
    ['0001-01-01', EARLIEST_INSTANT_MS],
    ['9999-12-31T23:59:59.999Z', LATEST_INSTANT_MS],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2024-01-01T10:30', Date.UTC(2024, 0, 1, 10, 30)],
    ['2024-01-01t10:30:15z', Date.UTC(2024, 0, 1, 10, 30, 15)],
    ['2024-01-01T10:30:15.123456789+02:00', Date.UTC(2024, 0, 1, 8, 30, 15, 123)],
    ['2024-01-01T00:00-0130', Date.UTC(2024, 0, 1, 1, 30)],
  ])('%s is the instant %d', (text, ms) => {
    expect(parseInstant(text)?.getTime()).toBe(ms);
  });

  test.each([
    '+275760-09-13T00:00:00Z',
    '0000-01-01',
    '10000-01-01',
    '+010000-01-01T00:00:00Z',
    '-000001-01-01T00:00:00Z',
    '0001-01-01T00:00:00+00:01',
    '9999-12-31T23:59:59.999-00:01',
    '2023-02-29',
    '2024-13-01',
    '2024-01-01T23:60Z',
    '2024-01-01 10:00',
    '1',
    'Jan 1 2024',
    '',
  ])('%p is refused', (text) => {
    expect(parseInstant(text)).toBeNull();
  });

  test('calendar dates have the same bounds and must exist', () => {
    expect(['0001-01-01', '9999-12-31', '2024-02-29'].map(isCalendarDate)).toEqual([true, true, true]);
    expect(['0000-12-31', '10000-01-01', '2023-02-29', '2024-1-01'].map(isCalendarDate)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
