import { bech32m } from '@scure/base';
import * as bitcoin from 'bitcoinjs-lib';
import { ECPairFactory } from 'ecpair';
import * as ecc from 'tiny-secp256k1';
import { type BitcoinNetwork, normalizeBitcoinAddress } from '../../src/screening/chains/bitcoin-address';
import { parseBitcoinRpcJson } from '../../src/screening/chains/bitcoin-rpc';
import { btcToSats } from '../../src/screening/chains/btc-amount';
import { addressFormatHint, normalizeAddress } from '../../src/screening/chains/target-format';

/**
 * Addresses of each network written by bitcoinjs-lib from one known key, plus BIP-173/350 vectors (written
 * independently of any library); each network accepts its own forms and refuses the others'.
 */
bitcoin.initEccLib(ecc);
const ECPair = ECPairFactory(ecc);
const SIMNET: bitcoin.Network = {
  ...bitcoin.networks.regtest,
  bech32: 'sb',
  pubKeyHash: 0x3f,
  scriptHash: 0x7b,
  wif: 0x64,
};
const LIB_NETWORKS: Record<BitcoinNetwork, bitcoin.Network> = {
  mainnet: bitcoin.networks.bitcoin,
  testnet: bitcoin.networks.testnet,
  regtest: bitcoin.networks.regtest,
  simnet: SIMNET,
};
const KEY = ECPair.fromPrivateKey(new Uint8Array(32).fill(7));

/** p2pkh, p2sh(p2wpkh), p2wpkh, p2wsh and p2tr of KEY on `network`. */
function formsOn(network: BitcoinNetwork): Record<'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr', string> {
  const n = LIB_NETWORKS[network];
  const wpkh = bitcoin.payments.p2wpkh({ pubkey: KEY.publicKey, network: n });
  const pkh = bitcoin.payments.p2pkh({ pubkey: KEY.publicKey, network: n });
  return {
    p2pkh: pkh.address as string,
    p2sh: bitcoin.payments.p2sh({ redeem: wpkh, network: n }).address as string,
    p2wpkh: wpkh.address as string,
    p2wsh: bitcoin.payments.p2wsh({ redeem: { output: pkh.output as Uint8Array }, network: n }).address as string,
    p2tr: bitcoin.payments.p2tr({ internalPubkey: KEY.publicKey.slice(1, 33), network: n }).address as string,
  };
}

const NETWORKS: BitcoinNetwork[] = ['mainnet', 'testnet', 'regtest', 'simnet'];
/** Whose segwit prefix each network accepts (mainnet keeps accepting testnet's, as it always did). */
const ACCEPTS_SEGWIT: Record<BitcoinNetwork, BitcoinNetwork[]> = {
  mainnet: ['mainnet', 'testnet'],
  testnet: ['testnet'],
  regtest: ['regtest'],
  simnet: ['simnet'],
};
/** Whose base58 versions each network accepts: regtest writes testnet's versions, so those go together. */
const ACCEPTS_BASE58: Record<BitcoinNetwork, BitcoinNetwork[]> = {
  mainnet: ['mainnet', 'testnet', 'regtest'],
  testnet: ['testnet', 'regtest'],
  regtest: ['testnet', 'regtest'],
  simnet: ['simnet'],
};

describe('normalizeBitcoinAddress per network', () => {
  test('the library writes the prefixes each network is known by', () => {
    expect(formsOn('regtest').p2wpkh).toMatch(/^bcrt1q/);
    expect(formsOn('simnet').p2wpkh).toMatch(/^sb1q/);
    expect(formsOn('simnet').p2pkh).toMatch(/^S/);
    expect(formsOn('testnet').p2pkh).toMatch(/^[mn]/);
    expect(formsOn('mainnet').p2tr).toMatch(/^bc1p/);
  });

  for (const network of NETWORKS)
    for (const origin of NETWORKS)
      for (const [form, address] of Object.entries(formsOn(origin))) {
        const segwit = form.startsWith('p2w') || form === 'p2tr';
        const accepted = (segwit ? ACCEPTS_SEGWIT : ACCEPTS_BASE58)[network].includes(origin);
        test(
          `when a ${origin} ${form} address is read on ${network}, ` +
            `then it is ${accepted ? 'accepted' : 'refused'}`,
          () => {
            expect(normalizeBitcoinAddress(address, network)).toBe(accepted ? address : null);
          },
        );
      }

  test.each(NETWORKS)('when a %s address has one character changed, then its checksum refuses it', (network) => {
    for (const address of Object.values(formsOn(network))) {
      const last = address.slice(-1);
      const broken = `${address.slice(0, -1)}${last === 'q' || last === '2' ? 'p' : 'q'}`;
      expect(normalizeBitcoinAddress(address, network)).toBe(address);
      expect(normalizeBitcoinAddress(broken, network)).toBeNull();
    }
  });

  test('when a regtest or simnet segwit address is upper-case, then it is lower-cased on its network', () => {
    const regtest = formsOn('regtest').p2wpkh;
    const simnet = formsOn('simnet').p2tr;
    expect(normalizeBitcoinAddress(regtest.toUpperCase(), 'regtest')).toBe(regtest);
    expect(normalizeBitcoinAddress(simnet.toUpperCase(), 'simnet')).toBe(simnet);
  });

  test('when the BIP-173 vectors are read, then bc1 is mainnet only and tb1 mainnet and testnet', () => {
    const bc = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
    const tb = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
    expect(normalizeBitcoinAddress(bc)).toBe(bc);
    expect(normalizeBitcoinAddress(bc, 'regtest')).toBeNull();
    expect(normalizeBitcoinAddress(tb, 'testnet')).toBe(tb);
    expect(normalizeBitcoinAddress(tb)).toBe(tb);
    expect(normalizeBitcoinAddress(tb, 'regtest')).toBeNull();
  });

  test('when a witness v1 program is no taproot key, then it is refused: no one could own the address', () => {
    // BIP-350 calls both valid addresses, but a v1 output of another length is anyone-can-spend and one off the
    // curve is unspendable (BIP-341): bitcoinjs-lib refuses them, and no wallet writes them.
    const v1Of40Bytes = 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y';
    const offCurve = [...Array(256).keys()].map((n) => new Uint8Array(32).fill(n)).find((x) => !ecc.isXOnlyPoint(x));
    const notAKey = bech32m.encode('bc', [1, ...bech32m.toWords(offCurve as Uint8Array)]);
    expect(normalizeBitcoinAddress(v1Of40Bytes)).toBeNull();
    expect(normalizeBitcoinAddress(notAKey)).toBeNull();
    expect(normalizeBitcoinAddress(formsOn('mainnet').p2tr)).toBe(formsOn('mainnet').p2tr);
  });

  test('when a future witness version (2-16) is read, then it is accepted as BIP-350 says', () => {
    // bitcoinjs-lib warns once per process that paying such an address may lose the funds; screening it is safe.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const v2 = 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs';
      expect(normalizeBitcoinAddress(v2)).toBe(v2);
      expect(normalizeBitcoinAddress('BC1SW50QGDZ25J')).toBe('bc1sw50qgdz25j');
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the api edge (normalizeAddress) follows BITCOIN_NETWORK', () => {
  test('when BITCOIN_NETWORK is regtest, then a bcrt1 address is accepted and a mainnet one refused', () => {
    const regtest = formsOn('regtest');
    expect(normalizeAddress('bitcoin', ` ${regtest.p2wpkh} `, 'regtest')).toBe(regtest.p2wpkh);
    expect(normalizeAddress('bitcoin', regtest.p2pkh, 'regtest')).toBe(regtest.p2pkh);
    expect(normalizeAddress('bitcoin', formsOn('mainnet').p2wpkh, 'regtest')).toBeNull();
    expect(normalizeAddress('bitcoin', formsOn('mainnet').p2pkh, 'regtest')).toBeNull();
    expect(addressFormatHint('bitcoin', 'regtest')).toContain('bcrt1');
  });

  test('when BITCOIN_NETWORK is mainnet (the default), then only mainnet forms pass the edge', () => {
    expect(normalizeAddress('bitcoin', formsOn('mainnet').p2tr)).toBe(formsOn('mainnet').p2tr);
    expect(normalizeAddress('bitcoin', formsOn('regtest').p2wpkh)).toBeNull();
    expect(normalizeAddress('bitcoin', formsOn('testnet').p2wpkh)).toBeNull();
    expect(normalizeAddress('bitcoin', formsOn('simnet').p2wpkh, 'mainnet')).toBeNull();
    expect(addressFormatHint('bitcoin')).toContain('bc1');
  });

  test('when BITCOIN_NETWORK is simnet, then an sb1 address is accepted and a regtest one refused', () => {
    expect(normalizeAddress('bitcoin', formsOn('simnet').p2wpkh, 'simnet')).toBe(formsOn('simnet').p2wpkh);
    expect(normalizeAddress('bitcoin', formsOn('regtest').p2wpkh, 'simnet')).toBeNull();
  });

  test('when the chain is not bitcoin, then BITCOIN_NETWORK changes nothing', () => {
    const evm = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
    expect(normalizeAddress('ethereum', evm, 'regtest')).toBe(evm);
  });
});

describe('BTC amounts from a node', () => {
  test.each([
    ['0.00000001', 1n],
    ['1e-08', 1n],
    ['1E-8', 1n],
    ['6.25', 625_000_000n],
    ['50', 5_000_000_000n],
    ['0.29', 29_000_000n],
    ['20999999.9769', 2_099_999_997_690_000n],
    ['0.1', 10_000_000n],
  ])('when the node says %s BTC, then it is exactly %p satoshis', (text, sats) => {
    expect(btcToSats(text)).toBe(sats);
  });

  test('when amounts come as JSON numbers, then their text is read, not value * 1e8', () => {
    // 0.29 * 1e8 is 28999999.999999996 in floating point; 1.1 * 1e8 is 110000000.00000001.
    expect(btcToSats(0.29)).toBe(29_000_000n);
    expect(btcToSats(1.1)).toBe(110_000_000n);
    expect(btcToSats(1e-8)).toBe(1n);
  });

  test('when an amount is finer than a satoshi or not a number, then it is refused', () => {
    expect(() => btcToSats('0.000000001')).toThrow(RangeError);
    expect(() => btcToSats('-1')).toThrow(RangeError);
    expect(() => btcToSats('abc')).toThrow(RangeError);
  });

  test('when an answer is parsed, then fractional numbers keep their text and strings are untouched', () => {
    const parsed = parseBitcoinRpcJson('{"value":0.29,"n":1,"tiny":1e-08,"s":"x 1.5 \\" 2.5","whole":50}') as Record<
      string,
      unknown
    >;
    expect(parsed).toEqual({ value: '0.29', n: 1, tiny: '1e-08', s: 'x 1.5 " 2.5', whole: 50 });
    expect(btcToSats(parsed.value as string)).toBe(29_000_000n);
  });
});
