import { MAX_BATCH_ITEMS, targetsFromCsv } from '../../src/dashboard/web/batch/csv-targets';
import type { BatchTarget } from '../../src/dashboard/web/batch/batch-types';

/**
 * The dashboard reads an uploaded CSV of targets in the page before it sends the batch. Files written by any
 * RFC 4180 writer (quoted or not, CRLF or LF, with quotes, commas and line breaks inside fields) must come back as
 * the same targets with the line each came from; a file that is not a list of targets is refused in words.
 */

function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

const TEXTS = ['0xabc', 'case 1', 'a,b', 'say "hi"', 'two\nlines', '  padded  ', '=1+2', 'ünïcode', 'x\r\ny'];

/** An RFC 4180 field, quoted when it must be (or when the writer quotes everything). */
const field = (value: string, quoteAll: boolean) =>
  quoteAll || /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;

describe('dashboard: reading a CSV of targets', () => {
  test('When random target lists are written as CSV in any style, then they are read back with their lines', () => {
    const random = prng(7);
    for (let round = 0; round < 300; round++) {
      const quoteAll = random() < 0.3;
      const eol = random() < 0.5 ? '\r\n' : '\n';
      const columns = random() < 0.5 ? ['address', 'chain', 'reference_id'] : ['chain', 'txid', 'reference_id'];
      const target = columns.includes('address') ? 'address' : 'txid';
      const count = 1 + Math.floor(random() * 8);
      const expected: BatchTarget[] = [];
      const expectedLines: number[] = [];
      let line = 2;
      const rows = [columns.map((c) => (random() < 0.2 ? c.toUpperCase() : c)).join(',')];
      for (let i = 0; i < count; i++) {
        const pick = () => TEXTS[Math.floor(random() * TEXTS.length)] as string;
        const values: Record<string, string> = { [target]: pick(), chain: 'ethereum', reference_id: pick() };
        const row = columns.map((c) => field(values[c] as string, quoteAll)).join(',');
        rows.push(row);
        const item: BatchTarget = { chain: 'ethereum' };
        item[target] = (values[target] as string).trim();
        item.reference_id = (values.reference_id as string).trim();
        expected.push(item);
        expectedLines.push(line);
        line += 1 + (row.match(/\n/g) ?? []).length;
        if (random() < 0.2) {
          rows.push('');
          line++;
        }
      }
      const text = (random() < 0.2 ? '\uFEFF' : '') + rows.join(eol) + (random() < 0.5 ? eol : '');
      const read = targetsFromCsv(text, text.length);
      expect(read).toEqual({ ok: true, file: { items: expected, lines: expectedLines } });
    }
  });

  test.each([
    ['', /^The file is empty/],
    ['0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c,ethereum\n', /^The first row must name the columns .*“0x4f47/],
    ['address,reference_id\n0xabc,r1\n', /no “chain” column/],
    ['chain,reference_id\nethereum,r1\n', /neither an “address” nor a “txid” column/],
    ['address,chain,address\n', /names the column “address” twice/],
    ['address,chain\n', /^The file has a header row but no targets under it\.$/],
    ['address,chain\n0xabc,ethereum,extra\n', /^Line 2 has 3 fields but the header names 2 columns/],
    [
      'address,chain\n"0xabc,ethereum\n',
      /^The file is not valid CSV: The quote \("\) opened on line 2 is never closed\.$/,
    ],
    ['address,chain\n0x"abc",ethereum\n', /^The file is not valid CSV: Line 2 has a quote/],
    ['address,chain\n\u0000\u0001', /^This is not a text file/],
  ])('When the file is %j, then it is refused in words', (text, problem) => {
    const read = targetsFromCsv(text, text.length);
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.problem).toMatch(problem);
  });

  test('When the file has more targets than a batch takes, then it is refused with the count', () => {
    const rows = Array.from({ length: MAX_BATCH_ITEMS + 1 }, (_, i) => `0x${i},ethereum`);
    const text = ['address,chain', ...rows].join('\n');
    const read = targetsFromCsv(text, text.length);
    expect(read).toEqual({
      ok: false,
      problem: expect.stringMatching(/^The file has 1,001 targets: .* at most 1,000/),
    });
    const fits = targetsFromCsv(['address,chain', ...rows.slice(1)].join('\n'), text.length);
    expect(fits.ok && fits.file.items.length).toBe(MAX_BATCH_ITEMS);
  });

  test('When a row leaves the target empty, then it is still sent, for the API to list it as invalid', () => {
    const read = targetsFromCsv('address,chain,reference_id\n,ethereum,r1\n0xabc,,\n', 40);
    expect(read).toEqual({
      ok: true,
      file: {
        items: [
          { chain: 'ethereum', reference_id: 'r1' },
          { chain: '', address: '0xabc' },
        ],
        lines: [2, 3],
      },
    });
  });
});
