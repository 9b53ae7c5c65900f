import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { chainOf, normaliseAddress } from '../../src/lists/ofac/sdn-address';
import {
  parseSdnAdvanced,
  SDN_MAX_TEXT_CHARS,
  type SdnAddressEntry,
  SdnFormatError,
  type SdnIssue,
} from '../../src/lists/ofac/sdn-advanced-parser';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'ofac');
/** The uncompressed XML of a trimmed extract (test/fixtures/ofac/SOURCES.md). */
const trimmedXml = (issue: string) =>
  gunzipSync(readFileSync(path.join(FIXTURES, `sdn_advanced-${issue}.trimmed.xml.gz`)));

/** Fed in small chunks, so tags, names and multi-byte characters are split between writes as a stream splits them. */
const chunked = (bytes: Buffer, size = 4_096) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
    })(),
  );

const parse = (xml: string | Buffer) => parseSdnAdvanced(chunked(Buffer.from(xml)));
const find = (issue: SdnIssue, address: string) => issue.entries.filter((e) => e.address === address);

const TORNADO_CASH_PROXY = '0x722122df12d4e14e13ac3b6895a86e84145b6967';
/** Aeza Group LLC, designated 2025-07-01: listed between the 2025-03-21 and 2025-11-19 issues. */
const AEZA_GROUP_TRON = 'TU4tDFRvcKhAZ1jdihojmBWZqvJhQCnJ4F';

describe('parseSdnAdvanced on trimmed extracts of three real issues', () => {
  const issues: Record<string, SdnIssue> = {};

  beforeAll(async () => {
    for (const date of ['2025-03-04', '2025-03-21', '2025-11-19']) issues[date] = await parse(trimmedXml(date));
  });

  it('reads the issue date, counts one entry per (chain, address, party) and hashes the bytes read', () => {
    expect(Object.values(issues).map((i) => [i.issueDate, i.entries.length])).toEqual([
      ['2025-03-04', 706],
      ['2025-03-21', 616],
      ['2025-11-19', 750],
    ]);
    const xml = trimmedXml('2025-11-19');
    expect(issues['2025-11-19']!.bytes).toBe(xml.length);
    expect(issues['2025-11-19']!.sha256).toBe(createHash('sha256').update(xml).digest('hex'));
    for (const issue of Object.values(issues)) {
      const keys = issue.entries.map((e) => `${e.chain} ${e.address} ${e.sdnUid}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('has the Tornado Cash addresses on 2025-03-04 and not on 2025-03-21 (delisted that day)', () => {
    const before = issues['2025-03-04']!;
    expect(find(before, TORNADO_CASH_PROXY)).toEqual([
      {
        chain: 'ethereum',
        asset: 'ETH',
        address: TORNADO_CASH_PROXY,
        sdnUid: '39796',
        sdnName: 'TORNADO CASH',
        sdnType: 'Entity',
        programs: ['CYBER2', 'DPRK3'],
        designated: '2022-11-08',
      } satisfies SdnAddressEntry,
    ]);
    expect(before.entries.filter((e) => e.sdnName === 'TORNADO CASH')).toHaveLength(90);
    expect(find(issues['2025-03-21']!, TORNADO_CASH_PROXY)).toEqual([]);
    expect(issues['2025-03-21']!.entries.filter((e) => e.sdnUid === '39796')).toEqual([]);
  });

  it('has an address designated after 2025-03-21 only in the 2025-11-19 issue', () => {
    expect(find(issues['2025-03-04']!, AEZA_GROUP_TRON)).toEqual([]);
    expect(find(issues['2025-03-21']!, AEZA_GROUP_TRON)).toEqual([]);
    expect(find(issues['2025-11-19']!, AEZA_GROUP_TRON)).toEqual([
      {
        chain: 'tron',
        asset: 'TRX',
        address: AEZA_GROUP_TRON,
        sdnUid: '54566',
        sdnName: 'Aeza Group LLC',
        sdnType: 'Entity',
        programs: ['CYBER4', 'CAATSA - RUSSIA'],
        designated: '2025-07-01',
      },
    ]);
  });

  it('names individuals "LAST, First Middle" and entities as written', () => {
    const issue = issues['2025-11-19']!;
    expect(find(issue, '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h')[0]).toMatchObject({
      sdnUid: '25308',
      sdnName: 'YAN, Xiaobing',
      sdnType: 'Individual',
      programs: ['SDNTK'],
      designated: '2019-08-21',
    });
    expect(find(issue, '0xfec8a60023265364d066a1212fde3930f6ae8da7')[0]).toMatchObject({
      sdnName: 'Polyanin, Yevgeniy Igorevich',
      sdnType: 'Individual',
    });
    expect(find(issue, '123WBUDmSJv4GctdVEz6Qq6z8nXSKrJ4KX')[0]).toMatchObject({
      sdnName: 'Hydra Market',
      sdnType: 'Entity',
    });
  });

  it('normalises addresses and maps assets to chains as data/risk/sanctions_ofac.csv does', () => {
    const issue = issues['2025-11-19']!;
    // Written 0x983a81ca6FB1e441266D2FbcB7D8E530AC2E05A2 three times for party 45314: as ETH, USDT and USDC.
    expect(find(issue, '0x983a81ca6fb1e441266d2fbcb7d8e530ac2e05a2')).toEqual([
      expect.objectContaining({ chain: 'ethereum', asset: 'ETH', sdnUid: '45314' }),
    ]);
    expect(issue.entries.some((e) => /[A-F]/.test(e.address) && e.address.startsWith('0x'))).toBe(false);
    expect(find(issue, 'bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23')[0]).toMatchObject({
      chain: 'binance-smart-chain',
      asset: 'BNB',
    });
    expect(find(issue, '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c').map((e) => [e.chain, e.asset])).toEqual([
      ['ethereum', 'ETH'],
      ['arbitrum', 'ARB'],
      ['binance-smart-chain', 'BSC'],
    ]);
    // USDT by address format: Omni Layer on bitcoin, TRC-20 on tron, ERC-20 on ethereum.
    expect(find(issue, '16iWn2J1McqjToYLHSsAyS6En3QA8YQ91H')[0]).toMatchObject({ chain: 'bitcoin', asset: 'USDT' });
    expect(find(issue, 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz')[0]).toMatchObject({ chain: 'tron', asset: 'USDT' });
    // A Tron address OFAC files under XBT (every issue since 2023) is listed on tron, where it can be screened.
    expect(find(issue, 'TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq')[0]).toMatchObject({ chain: 'tron', asset: 'XBT' });
    expect(find(issue, '0xfac583c0cf07ea434052c49115a4682172ab6b4f')[0]).toMatchObject({
      chain: 'ethereum',
      asset: 'USDT',
    });
    const chains = new Set(issue.entries.map((e) => e.chain));
    expect([...chains].sort()).toEqual(
      [
        'arbitrum',
        'binance-smart-chain',
        'bitcoin',
        'bitcoin-cash',
        'bitcoin-gold',
        'bitcoin-sv',
        'dash',
        'ethereum',
        'ethereum-classic',
        'litecoin',
        'monero',
        'ripple',
        'solana',
        'tron',
        'verge',
        'zcash',
      ].sort(),
    );
  });

  it('gives an address listed for two parties one entry per party', () => {
    expect(find(issues['2025-11-19']!, 'LeKvNdNEzgQkzVVnRdV3fAu2DSF1nLsNw6').map((e) => e.sdnName)).toEqual([
      'Secondeye Solution',
      'RAZA, Mujtaba Ali',
    ]);
  });

  it('skips parties without digital currency addresses', () => {
    const xml = trimmedXml('2025-11-19').toString('utf8');
    // The extract keeps the first two parties of the issue, which have none.
    expect(xml).toContain('<DistinctParty FixedRef="36">');
    expect(xml).toContain('<DistinctParty FixedRef="173">');
    expect(issues['2025-11-19']!.entries.filter((e) => e.sdnUid === '36' || e.sdnUid === '173')).toEqual([]);
  });
});

describe('chainOf and normaliseAddress', () => {
  it.each([
    ['XBT', 'bc1qsomething0aaaaaaaaaaaaaaaaaaaaaaaaaa', 'bitcoin'],
    ['USDC', '0xb6f5ec1a0a9cd1526536d3f0426c429529471f40', 'ethereum'],
    ['USDT', 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz', 'tron'],
    ['USDT', '3E6ZCKRrsdPc35chA9Eftp1h3DLW18NFNV', 'bitcoin'],
    ['USDC', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'solana'],
    ['SOL', '42RLPACwZPx3vYYmxSueqsogfynBDqXK298EDsNoyoHi', 'solana'],
    // Filed under another chain's asset: the address's own format (checksum and all) decides.
    ['XBT', 'TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq', 'tron'],
    ['BNB', 'bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23', 'binance-smart-chain'],
    // Of no screened chain's format (a bad checksum): it stays under its asset's chain.
    ['TRX', 'TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzr', 'tron'],
    // An asset code OFAC adds later keeps its addresses, under the code.
    ['POL', '0x0000000000000000000000000000000000000001', 'pol'],
  ])('%s %s is on %s', (asset, address, chain) => {
    expect(chainOf(asset, address)).toBe(chain);
  });

  it.each([
    ['0x098B716B8Aaf21512996dC57EB0615e2383E2f96', '0x098b716b8aaf21512996dc57eb0615e2383e2f96'],
    ['BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
    ['ltc1qg82tgcx6dn3lrnrgpy7zqc2wvl3d7vaw2n6v8a', 'ltc1qg82tgcx6dn3lrnrgpy7zqc2wvl3d7vaw2n6v8a'],
    [' 1H939dom7i4WDLCKyGbXUp3fs9CSTNRzgL ', '1H939dom7i4WDLCKyGbXUp3fs9CSTNRzgL'],
    ['TU4tDFRvcKhAZ1jdihojmBWZqvJhQCnJ4F', 'TU4tDFRvcKhAZ1jdihojmBWZqvJhQCnJ4F'],
    ['rnXyVQzgxZe7TR1EPzTkGj2jxH4LMJYh66', 'rnXyVQzgxZe7TR1EPzTkGj2jxH4LMJYh66'],
  ])('%s → %s', (written, normalised) => {
    expect(normaliseAddress(written)).toBe(normalised);
  });
});

describe('parseSdnAdvanced refuses what is not a whole SDN Advanced document', () => {
  const valid = trimmedXml('2025-03-21');

  const rejects = async (input: string | Buffer, message: RegExp) => {
    const error = await parse(input).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SdnFormatError);
    expect(error).toMatchObject({ name: 'SdnFormatError', code: 'LIST_SOURCE_INVALID', retryable: false });
    expect((error as Error).message).toMatch(message);
  };

  it('rejects an empty input and text that is not XML', async () => {
    await rejects('', /no XML element|root element/);
    await rejects('sdn,name,type\n1,ACME,Entity\n', /not well-formed XML/);
  });

  it('rejects compressed bytes read as if they were the XML', async () => {
    await rejects(readFileSync(path.join(FIXTURES, 'sdn_advanced-2025-03-21.trimmed.xml.gz')), /not well-formed XML/);
  });

  it('rejects another XML document', async () => {
    await rejects('<?xml version="1.0"?><html><body>Service Unavailable</body></html>', /root element is <html>/);
  });

  it('rejects a document without DateOfIssue, or with one that is no date', async () => {
    const withoutDate = valid.toString('utf8').replace(/<DateOfIssue[\s\S]*?<\/DateOfIssue>/, '');
    await rejects(withoutDate, /no DateOfIssue/);
    const badDate = valid.toString('utf8').replace('<Month>3</Month>', '<Month>13</Month>');
    await rejects(badDate, /DateOfIssue is not a date/);
  });

  it('rejects a truncated document, wherever it is cut', async () => {
    for (const share of [0.001, 0.3, 0.95, 0.9999]) {
      await rejects(valid.subarray(0, Math.floor(valid.length * share)), /truncated|not well-formed XML/);
    }
  });

  it('rejects parties before the reference values they refer to', async () => {
    await rejects(
      '<Sanctions><DateOfIssue><Year>2025</Year><Month>1</Month><Day>2</Day></DateOfIssue>' +
        '<DistinctParties><DistinctParty FixedRef="1"/></DistinctParties><ReferenceValueSets/></Sanctions>',
      /before the ReferenceValueSets/,
    );
  });

  it('rejects with the input stream error itself when the input fails', async () => {
    const failing = new Readable({
      read() {
        this.push(valid.subarray(0, 10_000));
        this.destroy(new Error('disk gone'));
      },
    });
    await expect(parseSdnAdvanced(failing)).rejects.toThrow('disk gone');
  });

  it('accepts a minimal document: an issue without digital currency addresses has no entries', async () => {
    const issue = await parse(
      '<Sanctions><DateOfIssue><Year>2025</Year><Month>1</Month><Day>2</Day></DateOfIssue>' +
        '<ReferenceValueSets/><DistinctParties/><SanctionsEntries/></Sanctions>',
    );
    expect(issue).toMatchObject({ issueDate: '2025-01-02', entries: [] });
  });
});

describe('parseSdnAdvanced is bounded: a source that is not OFAC cannot make it hold unbounded text', () => {
  const valid = trimmedXml('2025-11-19').toString('utf8');
  const TRON_USDT = 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz';

  const rejection = async (input: Readable, limits?: Parameters<typeof parseSdnAdvanced>[1]) => {
    const error = await parseSdnAdvanced(input, limits).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SdnFormatError);
    expect(error).toMatchObject({ code: 'LIST_SOURCE_INVALID', retryable: false });
    return (error as Error).message;
  };

  it('accepts the real extract under the default limits (a text node of an issue is short)', async () => {
    const issue = await parse(valid);
    expect(issue.entries.length).toBe(750);
    expect(SDN_MAX_TEXT_CHARS).toBe(64 * 1024);
  });

  it('refuses one huge text node in an element nobody reads', async () => {
    const huge = valid.replace(
      '<DistinctParty FixedRef="36">',
      `<DistinctParty FixedRef="36"><Note>${'A'.repeat(200_000)}</Note>`,
    );
    expect(await rejection(chunked(Buffer.from(huge)))).toMatch(/longer than 65536 characters/);
  });

  it(
    'refuses an address whose text is split by comments ' + 'into many short nodes that add up past the limit',
    async () => {
      expect(valid.split(TRON_USDT)).toHaveLength(2);
      const split = valid.replace(TRON_USDT, `${TRON_USDT}${`${'x'.repeat(1_000)}<!---->`.repeat(100)}`);
      expect(await rejection(chunked(Buffer.from(split)))).toMatch(/the text of <VersionDetail> is longer than 65536/);
    },
  );

  it('refuses a huge attribute value', async () => {
    const huge = valid.replace(
      '<DistinctParty FixedRef="36">',
      `<DistinctParty FixedRef="36" Note="${'A'.repeat(100_000)}">`,
    );
    expect(await rejection(chunked(Buffer.from(huge)))).toMatch(/longer than 65536 characters/);
  });

  it('stops reading a text node that never ends as soon as it passes the limit', async () => {
    let pulled = 0;
    const endless = Readable.from(
      (function* () {
        yield Buffer.from('<Sanctions><DateOfIssue><Year>2025</Year></DateOfIssue><Note>');
        for (;;) {
          pulled++;
          yield Buffer.alloc(4_096, 'A');
        }
      })(),
    );
    expect(await rejection(endless)).toMatch(/longer than 65536 characters/);
    // 64 KiB is 16 chunks of 4 KiB: the read stopped right after the limit, not at the end of an endless input.
    expect(pulled).toBeGreaterThanOrEqual(16);
    expect(pulled).toBeLessThanOrEqual(17);
  });

  it('refuses a document larger than the size limit, decompressed bombs included', async () => {
    expect(await rejection(chunked(Buffer.from(valid)), { maxDocumentBytes: 100_000 })).toMatch(
      /larger than 100000 bytes/,
    );
    expect(Buffer.byteLength(valid)).toBeGreaterThan(100_000);
    expect(
      (await parseSdnAdvanced(chunked(Buffer.from(valid)), { maxDocumentBytes: Buffer.byteLength(valid) })).bytes,
    ).toBe(Buffer.byteLength(valid));
  });
});
