import { bech32, bech32m } from '@scure/base';
import { SUPPORTED_CHAINS } from '../../src/screening/chains/chain';
import {
  ADDRESS_FORMAT_HINT,
  addressFormatOf,
  normalizeAddress,
  normalizeTxid,
  TXID_FORMAT_HINT,
} from '../../src/screening/chains/target-format';

// Real addresses from data/risk/sanctions_ofac.csv and data/risk/address_labels.csv.
const EVM_SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // OFAC, ethereum/bsc/arbitrum
const BSC_EXCHANGE = '0x01c952174c24e1210d26961d456a77a39e1f0bb0'; // labels: Binance Hot Wallet 10
const BTC_BECH32 = 'bc1q05aktddf9ce4p7hh3stgsf253m4vweu7nkhtmw'; // OFAC "Wang, Yunhe"
const BTC_TAPROOT = 'bc1p3rynzzrpldcwmpqv5k7n98zxazrqm86arzsdzmmgkv4xvnjru3rqc2rs2g'; // labels: WEEX
const BTC_P2PKH = '123WBUDmSJv4GctdVEz6Qq6z8nXSKrJ4KX'; // OFAC Hydra Market
const BTC_P2SH = '31nadacWrgPeAQxKRMabhn3fPhnhi3hjKa'; // OFAC "Grimm, Matthew Simon"
const TRON = 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz'; // OFAC CHEIL CREDIT BANK
const TRON_LABELLED = 'TA5gT7kFLTYSgrTQgsCah6jfCz75xX17ce'; // labels: OSL Hong Kong
const SOLANA = '42RLPACwZPx3vYYmxSueqsogfynBDqXK298EDsNoyoHi'; // OFAC "Sokolovski, Rolan"
const SOLANA_LABELLED = '27XKFUkuY8VyXLbinENSVp4aTxHSCtZcJ9poKWP4GEuj'; // labels: Coinstore
const RIPPLE = 'rnXyVQzgxZe7TR1EPzTkGj2jxH4LMJYh66'; // OFAC CHATEX
const RIPPLE_LABELLED = 'r349nPzpVGRFqQKkyvPsbvQdzLRQNfobbk'; // labels: Deribit

// Real transaction hashes from data/risk/stablecoin_blacklist.csv (last_event_tx).
const ETH_TX = '0x520a66112467b4b79016c2a62658b56e8f78049bae8bf6f4ce4bf39ec2d75ba8';
const TRON_TX = 'af4bc4d793f82ca5ba500cf13cf93ca3e7a56fccc2aabf8b09e55fc756500ea8';
// A base58 Solana signature shape (88 characters).
const SOLANA_SIG = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

describe('normalizeAddress', () => {
  test.each([
    ['ethereum', EVM_SANCTIONED],
    ['binance-smart-chain', BSC_EXCHANGE],
  ] as const)('when a lower-case %s address is given, then it is returned unchanged', (chain, address) => {
    // Arrange / Act
    const result = normalizeAddress(chain, address);

    // Assert
    expect(result).toBe(address);
  });

  test('when an EVM address is given in checksum (mixed) case, then it is lower-cased', () => {
    // Arrange
    const mixed = '0x4F47bc496083C727c5fbe3CE9cdf2B0f6496270C';

    // Act
    const result = normalizeAddress('ethereum', mixed);

    // Assert
    expect(result).toBe(EVM_SANCTIONED);
  });

  test('when an EVM address is all upper-case hex, then it is lower-cased', () => {
    // Arrange / Act
    const result = normalizeAddress('binance-smart-chain', `0x${BSC_EXCHANGE.slice(2).toUpperCase()}`);

    // Assert
    expect(result).toBe(BSC_EXCHANGE);
  });

  test.each([
    ['without 0x', EVM_SANCTIONED.slice(2)],
    ['with 39 hex characters', EVM_SANCTIONED.slice(0, -1)],
    ['with 41 hex characters', `${EVM_SANCTIONED}0`],
    ['with a non-hex character', `${EVM_SANCTIONED.slice(0, -1)}g`],
    ['with upper-case 0X', `0X${EVM_SANCTIONED.slice(2)}`],
    ['empty', ''],
  ])('when an EVM address is %s, then it is rejected', (_what, address) => {
    // Arrange / Act
    const result = normalizeAddress('ethereum', address);

    // Assert
    expect(result).toBeNull();
  });

  test('when an address is surrounded by whitespace, then it is trimmed', () => {
    // Arrange / Act
    const evm = normalizeAddress('ethereum', `  ${EVM_SANCTIONED}\n`);
    const tron = normalizeAddress('tron', `\t${TRON} `);

    // Assert
    expect(evm).toBe(EVM_SANCTIONED);
    expect(tron).toBe(TRON);
  });

  test.each([BTC_BECH32, BTC_TAPROOT])(
    'when a lower-case bech32 bitcoin address %s is given, then it is accepted unchanged',
    (address) => {
      // Arrange / Act
      const result = normalizeAddress('bitcoin', address);

      // Assert
      expect(result).toBe(address);
    },
  );

  test('when a bech32 bitcoin address is all upper-case, then it is lower-cased', () => {
    // Arrange / Act
    const result = normalizeAddress('bitcoin', BTC_BECH32.toUpperCase());

    // Assert
    expect(result).toBe(BTC_BECH32);
  });

  test.each([
    ['upper-case prefix, lower-case data', `BC1${BTC_BECH32.slice(3)}`],
    [
      'one upper-case character in the data',
      `${BTC_BECH32.slice(0, 10)}${BTC_BECH32.slice(10, 11).toUpperCase()}${BTC_BECH32.slice(11)}`,
    ],
  ])('when a bech32 bitcoin address mixes cases (%s), then it is rejected', (_what, address) => {
    // Arrange / Act
    const result = normalizeAddress('bitcoin', address);

    // Assert
    expect(result).toBeNull();
  });

  test(
    'when a bech32 bitcoin address contains a character ' + 'outside the bech32 alphabet (b), then it is rejected',
    () => {
      // Arrange / Act
      const result = normalizeAddress('bitcoin', `${BTC_BECH32.slice(0, -1)}b`);

      // Assert
      expect(result).toBeNull();
    },
  );

  test.each([BTC_P2PKH, BTC_P2SH])(
    'when a base58 bitcoin address %s is given, then it is kept verbatim (case-sensitive)',
    (address) => {
      // Arrange / Act
      const result = normalizeAddress('bitcoin', address);

      // Assert
      expect(result).toBe(address);
    },
  );

  test.each([
    ['starting with 2', `2${BTC_P2PKH.slice(1)}`],
    ['containing 0 (not base58)', `${BTC_P2PKH.slice(0, -1)}0`],
    ['containing l (not base58)', `${BTC_P2PKH.slice(0, -1)}l`],
    ['too short', BTC_P2PKH.slice(0, 20)],
    ['an EVM address', EVM_SANCTIONED],
  ])('when a bitcoin address is %s, then it is rejected', (_what, address) => {
    // Arrange / Act
    const result = normalizeAddress('bitcoin', address);

    // Assert
    expect(result).toBeNull();
  });

  test.each([TRON, TRON_LABELLED])(
    'when a 34-character T-prefixed tron address %s is given, then it is kept verbatim',
    (address) => {
      // Arrange / Act
      const result = normalizeAddress('tron', address);

      // Assert
      expect(result).toBe(address);
    },
  );

  test.each([
    ['33 characters', TRON.slice(0, -1)],
    ['35 characters', `${TRON}A`],
    ['not starting with T', `A${TRON.slice(1)}`],
    ['lower-case t', `t${TRON.slice(1)}`],
    ['an EVM address', EVM_SANCTIONED],
  ])('when a tron address has %s, then it is rejected', (_what, address) => {
    // Arrange / Act
    const result = normalizeAddress('tron', address);

    // Assert
    expect(result).toBeNull();
  });

  test.each([SOLANA, SOLANA_LABELLED])(
    'when a base58 solana address %s is given, then it is kept verbatim',
    (address) => {
      // Arrange / Act
      const result = normalizeAddress('solana', address);

      // Assert
      expect(result).toBe(address);
    },
  );

  test.each([
    ['31 characters', SOLANA.slice(0, 31)],
    ['45 characters', `${SOLANA}A`],
    ['a 0 (not base58)', `${SOLANA.slice(0, -1)}0`],
  ])('when a solana address has %s, then it is rejected', (_what, address) => {
    // Arrange / Act
    const result = normalizeAddress('solana', address);

    // Assert
    expect(result).toBeNull();
  });

  test.each([RIPPLE, RIPPLE_LABELLED])(
    'when an r-prefixed XRP address %s is given, then it is kept verbatim',
    (address) => {
      // Arrange / Act
      const result = normalizeAddress('ripple', address);

      // Assert
      expect(result).toBe(address);
    },
  );

  test.each([
    ['not starting with r', `x${RIPPLE.slice(1)}`],
    ['upper-case R', `R${RIPPLE.slice(1)}`],
    ['too short', RIPPLE.slice(0, 20)],
    ['a 0 (not in the XRP alphabet)', `${RIPPLE.slice(0, -1)}0`],
  ])('when an XRP address is %s, then it is rejected', (_what, address) => {
    // Arrange / Act
    const result = normalizeAddress('ripple', address);

    // Assert
    expect(result).toBeNull();
  });

  test('when a valid address of another chain is given, then it is rejected', () => {
    // Arrange / Act / Assert
    expect(normalizeAddress('ethereum', TRON)).toBeNull();
    expect(normalizeAddress('ripple', TRON)).toBeNull();
    expect(normalizeAddress('tron', RIPPLE)).toBeNull();
  });
});

describe('normalizeTxid', () => {
  test('when an EVM txid has no 0x prefix, then the canonical 0x-prefixed lower-case form is returned', () => {
    // Arrange / Act
    const result = normalizeTxid('ethereum', ETH_TX.slice(2).toUpperCase());

    // Assert
    expect(result).toBe(ETH_TX);
  });

  test('when an EVM txid has a 0X prefix and upper-case hex, then it is lower-cased with 0x', () => {
    // Arrange / Act
    const result = normalizeTxid('binance-smart-chain', `0X${ETH_TX.slice(2).toUpperCase()}`);

    // Assert
    expect(result).toBe(ETH_TX);
  });

  test('when an EVM txid is already canonical and padded with whitespace, then it is returned trimmed', () => {
    // Arrange / Act
    const result = normalizeTxid('ethereum', ` ${ETH_TX} `);

    // Assert
    expect(result).toBe(ETH_TX);
  });

  test.each([
    ['63 hex characters', ETH_TX.slice(0, -1)],
    ['65 hex characters', `${ETH_TX}0`],
    ['a non-hex character', `${ETH_TX.slice(0, -1)}z`],
    ['an address', EVM_SANCTIONED],
  ])('when an EVM txid has %s, then it is rejected', (_what, txid) => {
    // Arrange / Act
    const result = normalizeTxid('ethereum', txid);

    // Assert
    expect(result).toBeNull();
  });

  test('when a bitcoin or tron txid is 64 upper-case hex characters, then it is lower-cased without a prefix', () => {
    // Arrange / Act
    const btc = normalizeTxid('bitcoin', TRON_TX.toUpperCase());
    const tron = normalizeTxid('tron', TRON_TX.toUpperCase());

    // Assert
    expect(btc).toBe(TRON_TX);
    expect(tron).toBe(TRON_TX);
  });

  test('when a bitcoin txid carries a 0x prefix, then it is rejected', () => {
    // Arrange / Act
    const result = normalizeTxid('bitcoin', `0x${TRON_TX}`);

    // Assert
    expect(result).toBeNull();
  });

  test('when an XRP txid is given in lower case, then it is upper-cased', () => {
    // Arrange / Act
    const result = normalizeTxid('ripple', TRON_TX);

    // Assert
    expect(result).toBe(TRON_TX.toUpperCase());
  });

  test('when a solana base58 signature is given, then it is kept verbatim', () => {
    // Arrange / Act
    const result = normalizeTxid('solana', ` ${SOLANA_SIG} `);

    // Assert
    expect(result).toBe(SOLANA_SIG);
  });

  test.each([
    ['a hex hash containing 0', TRON_TX],
    ['an address-length string', SOLANA],
    ['a 0 (not base58)', `${SOLANA_SIG.slice(0, -1)}0`],
  ])('when a solana txid is %s, then it is rejected', (_what, txid) => {
    // Arrange / Act
    const result = normalizeTxid('solana', txid);

    // Assert
    expect(result).toBeNull();
  });
});

describe('format hints', () => {
  test('when any supported chain is looked up, then an address and a txid hint exist', () => {
    // Arrange / Act / Assert
    for (const chain of SUPPORTED_CHAINS) {
      expect(ADDRESS_FORMAT_HINT[chain]).toEqual(expect.any(String));
      expect(TXID_FORMAT_HINT[chain]).toEqual(expect.any(String));
    }
  });
});

describe('checksums at the API edge', () => {
  // Real addresses (bitcoin genesis coinbase, Tron USDT contract, XRPL genesis account), each with
  // one character changed.
  test.each([
    ['bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'],
    ['bitcoin', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp'],
    ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
    ['ripple', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTj'],
  ] as const)(
    'when a %s address has a wrong checksum, then it is refused while the real one passes',
    (chain, real, broken) => {
      expect(normalizeAddress(chain, real)).not.toBeNull();
      expect(normalizeAddress(chain, broken)).toBeNull();
    },
  );

  test('when a solana address does not decode to 32 bytes, then it is refused', () => {
    expect(normalizeAddress('solana', 'So11111111111111111111111111111111111111112')).toBe(
      'So11111111111111111111111111111111111111112',
    );
    expect(normalizeAddress('solana', 'z'.repeat(32))).toBeNull(); // 24 bytes
  });
});

describe('BNB Beacon Chain addresses on binance-smart-chain', () => {
  // OFAC "Sokolovski, Rolan" (asset BNB) in data/risk/sanctions_ofac.csv.
  const BNB_LISTED = 'bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23';
  const account = bech32.decode(BNB_LISTED).words;

  test('when a listed bnb1… address is given, then it is accepted as a format no node reads', () => {
    expect(normalizeAddress('binance-smart-chain', BNB_LISTED)).toBe(BNB_LISTED);
    expect(addressFormatOf('binance-smart-chain', BNB_LISTED)).toMatchObject({ readOnChain: false });
    expect(addressFormatOf('binance-smart-chain', BSC_EXCHANGE)).toMatchObject({ readOnChain: true });
  });

  test('when it is written in upper case or padded with spaces, then it is lower-cased and trimmed', () => {
    expect(normalizeAddress('binance-smart-chain', ` ${BNB_LISTED.toUpperCase()} `)).toBe(BNB_LISTED);
  });

  test.each([
    ['a wrong checksum', `${BNB_LISTED.slice(0, -1)}${BNB_LISTED.endsWith('3') ? '4' : '3'}`],
    ['mixed case', `${BNB_LISTED.slice(0, 10).toUpperCase()}${BNB_LISTED.slice(10)}`],
    ['the testnet prefix tbnb', bech32.encode('tbnb', account)],
    ['a bech32m checksum', bech32m.encode('bnb', account)],
    ['a 32-byte program', bech32.encode('bnb', bech32.toWords(new Uint8Array(32).fill(7)))],
    ['a bitcoin prefix', bech32.encode('bc', account)],
  ])('when a bnb1 address has %s, then it is refused', (_what, address) => {
    expect(normalizeAddress('binance-smart-chain', address)).toBeNull();
  });

  test('when a bnb1 address is screened on another chain, then it is refused there', () => {
    expect(normalizeAddress('ethereum', BNB_LISTED)).toBeNull();
    expect(normalizeAddress('bitcoin', BNB_LISTED)).toBeNull();
  });

  test('when the address is refused, then the hint names both formats', () => {
    expect(ADDRESS_FORMAT_HINT['binance-smart-chain']).toBe(
      '0x followed by 40 hex characters, or a BNB Beacon Chain bech32 address (bnb1…)',
    );
  });
});
