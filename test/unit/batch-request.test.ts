import { csvField } from '../../src/batches/batch-csv';
import { parseBatchRequest, parseIdempotencyKey } from '../../src/batches/batch-request';
import { HttpError } from '../../src/platform/http/errors';
import { capabilitiesFor } from '../../src/screening/engine/capabilities';

const limits = { defaultCrawlTimeoutMs: 8000, maxCrawlTimeoutMs: 120_000 };
const parse = (body: unknown) => parseBatchRequest(body, null, limits, capabilitiesFor(['ethereum']));
const ADDRESS = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';

describe('the batch body', () => {
  test('when two bodies differ only in key order or spacing, then they hash alike; another value does not', () => {
    const a = parse({ items: [{ chain: 'ethereum', address: ADDRESS, reference_id: 'x' }], crawlTimeout: 9000 });
    const b = parse(
      JSON.parse(`{"crawlTimeout": 9000, "items": [{"reference_id":"x","address":"${ADDRESS}","chain":"ethereum"}]}`),
    );
    const c = parse({ items: [{ chain: 'ethereum', address: ADDRESS, reference_id: 'y' }], crawlTimeout: 9000 });
    expect(a.bodySha256).toBe(b.bodySha256);
    expect(c.bodySha256).not.toBe(a.bodySha256);
  });

  test('when items are valid, then each is the single job it would be, with the batch-wide crawlTimeout', () => {
    const parsed = parse({
      items: [
        { chain: ' Ethereum ', address: ADDRESS.toUpperCase().replace('0X', '0x') },
        { chain: 'ethereum', txid: `0x${'AB'.repeat(32)}`, referenceId: 'legacy' },
      ],
      crawlTimeout: 5000,
    });
    expect(parsed.items).toEqual([
      {
        index: 0,
        valid: true,
        request: {
          apiType: 'KYA',
          chain: 'ethereum',
          target: ADDRESS,
          crawlTimeoutMs: 5000,
          referenceId: null,
        },
      },
      {
        index: 1,
        valid: true,
        request: {
          apiType: 'KYT',
          chain: 'ethereum',
          target: `0x${'ab'.repeat(32)}`,
          crawlTimeoutMs: 5000,
          referenceId: 'legacy',
        },
      },
    ]);
  });

  test('when the request as a whole is wrong, then a 400 names items, crawlTimeout or policy_id', () => {
    const parameterOf = (body: unknown) => {
      try {
        parse(body);
        return null;
      } catch (err) {
        return ((err as HttpError).body.error as { details: { parameter: string } }).details.parameter;
      }
    };
    expect(parameterOf(undefined)).toBe('items');
    expect(parameterOf({ items: [] })).toBe('items');
    expect(parameterOf({ items: Array(1001).fill({}) })).toBe('items');
    expect(parameterOf({ items: Array(1000).fill({}) })).toBeNull();
    expect(parameterOf({ items: [{}], crawlTimeout: 10 })).toBe('crawlTimeout');
    expect(parameterOf({ items: [{}], policy_id: '' })).toBe('policy_id');
  });
});

describe('the Idempotency-Key header', () => {
  test('when absent, then none; when 1-255 visible ASCII characters, then kept; else a 400 naming it', () => {
    expect(parseIdempotencyKey(undefined)).toBeNull();
    expect(parseIdempotencyKey('a')).toBe('a');
    expect(parseIdempotencyKey('~'.repeat(255))).toBe('~'.repeat(255));
    for (const bad of ['', ' ', 'a b', 'x'.repeat(256), 'é', 'tab\there']) {
      expect(() => parseIdempotencyKey(bad)).toThrow(HttpError);
    }
  });
});

describe('a CSV cell', () => {
  test.each([
    [null, ''],
    [12.5, '12.5'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['=1+1', "'=1+1"],
    ['+cmd', "'+cmd"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
  ])('%j is written %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });
});
