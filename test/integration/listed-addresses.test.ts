import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { parseSdnAdvanced } from '../../src/lists/ofac/sdn-advanced-parser';
import { isSupportedChain } from '../../src/screening/chains/chain';
import { normalizeAddress } from '../../src/screening/chains/target-format';

const DATA = path.join(__dirname, '..', '..', 'data', 'risk');
const OFAC_FIXTURES = path.join(__dirname, '..', 'fixtures', 'ofac');

/** The (chain, address) rows of a shipped list file: the chains this service screens only. */
function listedAddresses(file: string): { chain: string; address: string }[] {
  const rows: { chain: string; address: string }[] = parse(readFileSync(path.join(DATA, file)), {
    columns: true,
    skip_empty_lines: true,
  });
  return rows.filter((r) => isSupportedChain(r.chain)).map(({ chain, address }) => ({ chain, address }));
}

/**
 * The rows the API would refuse for their chain (400 INVALID_PARAMETER) or would store in another form than the
 * list's (a lookup would never find them): such a listed address could never be screened.
 */
function unscreenable(rows: { chain: string; address: string }[]): string[] {
  return rows
    .filter(({ chain, address }) => isSupportedChain(chain) && normalizeAddress(chain, address) !== address)
    .map(
      ({ chain, address }) => `${chain} ${address} → ${isSupportedChain(chain) && normalizeAddress(chain, address)}`,
    );
}

describe('every address the reference data holds for a screened chain can be screened', () => {
  test.each(['sanctions_ofac.csv', 'stablecoin_blacklist.csv', 'address_labels.csv'])(
    'data/risk/%s: the API accepts each address for its chain, in the form the list stores',
    (file) => {
      const rows = listedAddresses(file);
      expect(rows.length).toBeGreaterThan(0);
      expect(unscreenable(rows)).toEqual([]);
    },
  );

  test.each(['2025-03-04', '2025-03-21', '2025-11-19'])(
    "OFAC's SDN issue of %s, as the parser maps each Digital Currency Address to a chain",
    async (issue) => {
      const xml = gunzipSync(readFileSync(path.join(OFAC_FIXTURES, `sdn_advanced-${issue}.trimmed.xml.gz`)));
      const { entries } = await parseSdnAdvanced(Readable.from([xml]));
      expect(entries.length).toBeGreaterThan(600);
      expect(unscreenable(entries)).toEqual([]);
    },
  );

  test(
    'the formats OFAC lists are all there: 0x and bnb1 on binance-smart-chain, ' + 'T… on tron, 1/3/bc1 on bitcoin',
    () => {
      const rows = listedAddresses('sanctions_ofac.csv');
      const has = (chain: string, pattern: RegExp) => rows.some((r) => r.chain === chain && pattern.test(r.address));
      expect(has('binance-smart-chain', /^0x/)).toBe(true);
      expect(has('binance-smart-chain', /^bnb1/)).toBe(true);
      expect(has('tron', /^T/)).toBe(true);
      expect(has('bitcoin', /^bc1/)).toBe(true);
      expect(has('bitcoin', /^[13]/)).toBe(true);
      // The UTXO networks beside bitcoin: Litecoin's three forms, Bitcoin Cash's CashAddr, Dogecoin's D….
      expect(has('litecoin', /^L/) && has('litecoin', /^M/) && has('litecoin', /^ltc1/)).toBe(true);
      expect(has('bitcoin-cash', /^q/)).toBe(true);
      expect(has('dogecoin', /^D/)).toBe(true);
    },
  );
});
