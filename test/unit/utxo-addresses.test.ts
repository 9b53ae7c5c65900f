import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import * as bitcoin from 'bitcoinjs-lib';
import { ECPairFactory } from 'ecpair';
import * as ecc from 'tiny-secp256k1';
import { readBundledOfac } from '../../src/lists/bundled-ofac';
import { chainOf, listedAddress } from '../../src/lists/ofac/sdn-address';
import { UTXO_NETWORK_NAMES } from '../../src/screening/chains/chain';
import { addressFormatHint, normalizeAddress, normalizeTxid } from '../../src/screening/chains/target-format';

/**
 * Litecoin, Bitcoin Cash and Dogecoin addresses at the API edge: real addresses from data/risk/sanctions_ofac.csv,
 * and addresses written by bitcoinjs-lib's encoders from one known key for the forms the list has none of.
 */
bitcoin.initEccLib(ecc);
const KEY = ECPairFactory(ecc).fromPrivateKey(new Uint8Array(32).fill(7));
const LITECOIN: bitcoin.Network = {
  ...bitcoin.networks.bitcoin,
  bech32: 'ltc',
  pubKeyHash: 0x30,
  scriptHash: 0x32,
  wif: 0xb0,
};
const DOGECOIN: bitcoin.Network = { ...bitcoin.networks.bitcoin, pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e };
const pkh = (network: bitcoin.Network) => bitcoin.payments.p2pkh({ pubkey: KEY.publicKey, network });
const wpkh = (network: bitcoin.Network) => bitcoin.payments.p2wpkh({ pubkey: KEY.publicKey, network });
const p2sh = (network: bitcoin.Network) => bitcoin.payments.p2sh({ redeem: wpkh(network), network }).address!;
const p2tr = (network: bitcoin.Network) =>
  bitcoin.payments.p2tr({ internalPubkey: KEY.publicKey.slice(1, 33), network }).address!;

// OFAC SDN entries (data/risk/sanctions_ofac.csv).
const LTC_L = 'LNwgtMxcKUQ51dw7bQL1yPQjBVZh6QEqsd'; // KARASAVIDI, Dmitrii
const LTC_M = 'M8yFL6SFC6TreATegTyuSYkDfDRbisdpT3'; // Cryptex
const LTC_BECH32 = 'ltc1qr8ntsedq8tv0svmxqhzvdcdl5k7kntdmnhwep7'; // FIRST VPN SERVICE
const DOGE = 'DHzAVdEoL3PjGeLWNdEJwwMA1CeQ9J9Cpo'; // RASHEVSKYI, Dmytro
const BCH = 'qpf2cphc5dkuclkqur7lhj2yuqq9pk3hmukle77vhq'; // SOUTHFRONT
// Secondeye Solution: OFAC writes it in the legacy form; the CashAddr of the same hash, as @bitauth/libauth (an
// encoder independent of ecashaddrjs) wrote it when this test was made.
const BCH_LEGACY = '18M8bJWMzWHDBMxoLqjHHAffdRy4SrzkfB';
const BCH_OF_LEGACY = 'qpgf0ztxq3mwfq6eg5versgfdzq9c3pwv5jsk6wnay';
const BTC_BECH32 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const BTC_P2SH = '31nadacWrgPeAQxKRMabhn3fPhnhi3hjKa'; // OFAC "Grimm, Matthew Simon" (bitcoin)

/** One character changed near the end: the checksum no longer holds (the character stays in the alphabet). */
const broken = (address: string) => `${address.slice(0, -2)}${address.at(-2) === 'q' ? 'p' : 'q'}${address.at(-1)}`;

describe('litecoin addresses', () => {
  test.each([
    ['a listed L… (P2PKH)', LTC_L],
    ['a listed M… (P2SH)', LTC_M],
    ['a listed ltc1q… (P2WPKH)', LTC_BECH32],
    ['an old-style 3… P2SH (bitcoin’s version, which Litecoin Core still takes)', BTC_P2SH],
    ['a written L… (P2PKH)', pkh(LITECOIN).address!],
    ['a written M… (P2SH-P2WPKH)', p2sh(LITECOIN)],
    ['a written ltc1p… (taproot)', p2tr(LITECOIN)],
  ])('when %s is given, then it is accepted as written', (_what, address) => {
    expect(normalizeAddress('litecoin', address)).toBe(address);
  });

  test('when a bech32 address is upper-case, then it is the lower-case one; mixed case is refused', () => {
    expect(normalizeAddress('litecoin', LTC_BECH32.toUpperCase())).toBe(LTC_BECH32);
    expect(normalizeAddress('litecoin', `LTC1${LTC_BECH32.slice(4)}`)).toBeNull();
  });

  test.each([
    ['a broken base58 checksum', broken(LTC_L)],
    ['a broken bech32 checksum', broken(LTC_BECH32)],
    ['a bitcoin bech32 address (bc1…)', BTC_BECH32],
    ['a bitcoin P2PKH address (1…)', pkh(bitcoin.networks.bitcoin).address!],
    ['a dogecoin address', DOGE],
    ['a bitcoin cash CashAddr', BCH],
    ['an EVM address', '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'],
    ['an empty string', ''],
  ])('when %s is given, then it is refused', (_what, address) => {
    expect(normalizeAddress('litecoin', address)).toBeNull();
  });

  test('when an ltc1 address is given on bitcoin, then it is refused', () => {
    expect(normalizeAddress('bitcoin', LTC_BECH32)).toBeNull();
  });
});

describe('dogecoin addresses', () => {
  test.each([
    ['a listed D… (P2PKH)', DOGE],
    ['a written D… (P2PKH)', pkh(DOGECOIN).address!],
    ['a written A…/9… (P2SH)', bitcoin.payments.p2sh({ redeem: pkh(DOGECOIN), network: DOGECOIN }).address!],
  ])('when %s is given, then it is accepted as written', (_what, address) => {
    expect(normalizeAddress('dogecoin', address)).toBe(address);
  });

  test.each([
    ['a broken checksum', broken(DOGE)],
    ['a litecoin address', LTC_L],
    ['a bitcoin address', BTC_P2SH],
    // Dogecoin has no segwit: a bech32 string is never one of its addresses, whatever its prefix.
    ['a bech32 string with a doge prefix', bitcoin.address.toBech32(wpkh(LITECOIN).hash!, 0, 'doge')],
  ])('when %s is given, then it is refused', (_what, address) => {
    expect(normalizeAddress('dogecoin', address)).toBeNull();
  });
});

describe('bitcoin cash addresses', () => {
  test.each([
    ['without its prefix', BCH],
    ['with its prefix', `bitcoincash:${BCH}`],
    ['upper-case, with its prefix', `bitcoincash:${BCH}`.toUpperCase()],
    ['upper-case, without its prefix', BCH.toUpperCase()],
    ['surrounded by spaces', ` bitcoincash:${BCH} `],
  ])('when a listed CashAddr is given %s, then it is the list’s form (no prefix, lower-case)', (_what, address) => {
    expect(normalizeAddress('bitcoin-cash', address)).toBe(BCH);
  });

  test('when the legacy form of a listed address is given, then it is its CashAddr, so the listing matches', () => {
    expect(normalizeAddress('bitcoin-cash', BCH_LEGACY)).toBe(BCH_OF_LEGACY);
    expect(normalizeAddress('bitcoin-cash', `bitcoincash:${BCH_OF_LEGACY}`)).toBe(BCH_OF_LEGACY);
    // 3… is bitcoin's P2SH version, which is Bitcoin Cash's legacy P2SH too: a p… CashAddr.
    expect(normalizeAddress('bitcoin-cash', BTC_P2SH)).toMatch(/^p[02-9ac-hj-np-z]{41}$/);
  });

  test.each([
    ['a broken checksum', broken(BCH)],
    ['a broken checksum, with the prefix', `bitcoincash:${broken(BCH)}`],
    ['mixed case', `${BCH.slice(0, 10).toUpperCase()}${BCH.slice(10)}`],
    // The same payload is an eCash address too, but its checksum covers the prefix: not one of Bitcoin Cash.
    ['an eCash address', 'ecash:qpm2qsznhks23z7629mms6s4cwef74vcwva87rkuu2'],
    ['an eCash payload without its prefix', 'qpm2qsznhks23z7629mms6s4cwef74vcwva87rkuu2'],
    ['another network’s prefix', `bchtest:${BCH}`],
    // A token-aware (CashTokens) address of the same hash, written by @bitauth/libauth: ecashaddrjs does not decode
    // this type, so it is refused (400) rather than matched as another key.
    ['a token-aware address (z…)', 'bitcoincash:zpf2cphc5dkuclkqur7lhj2yuqq9pk3hmu342qs2gn'],
    ['a bitcoin bech32 address', BTC_BECH32],
    ['a litecoin address', LTC_L],
  ])('when %s is given, then it is refused', (_what, address) => {
    expect(normalizeAddress('bitcoin-cash', address)).toBeNull();
  });

  test('when a refused address gets its 400, then the hint names both forms', () => {
    expect(addressFormatHint('bitcoin-cash')).toMatch(/CashAddr.*bitcoincash:.*legacy base58 \(1…\/3…\)/);
  });
});

describe('transactions of the UTXO networks', () => {
  test.each(UTXO_NETWORK_NAMES)('when a %s txid is upper-case hex, then it is lower-cased', (chain) => {
    expect(normalizeTxid(chain, 'AB'.repeat(32))).toBe('ab'.repeat(32));
    expect(normalizeTxid(chain, `0x${'ab'.repeat(32)}`)).toBeNull();
  });
});

describe('the listed addresses of the UTXO networks', () => {
  const DATA = path.join(__dirname, '..', '..', 'data', 'risk');
  const rows: { chain: string; address: string }[] = parse(readFileSync(path.join(DATA, 'sanctions_ofac.csv')), {
    columns: true,
  });

  test.each(UTXO_NETWORK_NAMES)(
    'when each %s row is screened, then its address is the form the list stores',
    (chain) => {
      const listed = rows.filter((r) => r.chain === chain);
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.filter((r) => normalizeAddress(chain, r.address) !== r.address)).toEqual([]);
    },
  );

  test('when the shipped list is loaded, then each UTXO entry is stored as a screening looks it up', async () => {
    const { entries } = await readBundledOfac(DATA);
    const utxo = entries.filter((e) => (UTXO_NETWORK_NAMES as readonly string[]).includes(e.chain));
    expect(utxo.map((e) => e.chain).sort()).toEqual(
      rows
        .filter((r) => (UTXO_NETWORK_NAMES as readonly string[]).includes(r.chain))
        .map((r) => r.chain)
        .sort(),
    );
    for (const e of utxo) expect(normalizeAddress(e.chain as 'litecoin', e.address)).toBe(e.address);
  });

  test('when OFAC files a Bitcoin Cash address in its legacy form, then the list stores its CashAddr', () => {
    expect(chainOf('BCH', BCH_LEGACY)).toBe('bitcoin-cash');
    expect(listedAddress('bitcoin-cash', BCH_LEGACY)).toBe(BCH_OF_LEGACY);
    expect(listedAddress('bitcoin-cash', `bitcoincash:${BCH}`)).toBe(BCH);
    // Chains the service does not screen keep the address as written.
    expect(listedAddress('monero', 'AnyThing')).toBe('AnyThing');
  });

  test('when a token is listed at a 3… address, then it stays on bitcoin (Omni Layer), not litecoin', () => {
    expect(chainOf('USDT', '3E6ZCKRrsdPc35chA9Eftp1h3DLW18NFNV')).toBe('bitcoin');
    expect(chainOf('LTC', BTC_P2SH)).toBe('litecoin');
    expect(chainOf('LTC', LTC_M)).toBe('litecoin');
    expect(chainOf('XBT', LTC_L)).toBe('litecoin');
  });
});
