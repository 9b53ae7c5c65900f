import { loadConfig } from '../../src/app/config';
import { freezeSources, freezeSyncSettings } from '../../src/lists/freezes';

/**
 * Which issuer contracts the freeze sync reads on which EVM network: the issuer table, FREEZES_EVM_CONTRACTS over
 * it, Ethereum's older variables, and the start-up errors of a bad value.
 */
const ENDPOINTS = {
  ETHEREUM_RPC_URL: 'http://eth.invalid',
  BSC_RPC_URL: 'http://bsc.invalid',
  ARBITRUM_RPC_URL: 'http://arb.invalid',
  BASE_RPC_URL: 'http://base.invalid',
  OPTIMISM_RPC_URL: 'http://op.invalid',
  POLYGON_RPC_URL: 'http://polygon.invalid',
  AVALANCHE_RPC_URL: 'http://avax.invalid',
  LINEA_RPC_URL: 'http://linea.invalid',
};

const settingsOf = (env: Record<string, string>) => freezeSyncSettings(loadConfig({ NODE_ENV: 'test', ...env }));

const contractsOf = (env: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(settingsOf(env).evm).map(([chain, s]) => [
      chain,
      Object.fromEntries(s.contracts.map((c) => [c.token, c.contract])),
    ]),
  );

function startError(env: Record<string, string>): string {
  try {
    loadConfig({ NODE_ENV: 'test', ...env });
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected loadConfig to throw');
}

describe('the issuer contracts read on each EVM network', () => {
  test('when every EVM endpoint is set, then Circle’s USDC is read where Circle issues it, USDT on Ethereum', () => {
    expect(contractsOf(ENDPOINTS)).toEqual({
      ethereum: {
        USDT: '0xdac17f958d2ee523a2206206994597c13d831ec7',
        USDC: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      },
      arbitrum: { USDC: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' },
      base: { USDC: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' },
      optimism: { USDC: '0x0b2c639c533813f4aa9d7837caf62653d097ff85' },
      polygon: { USDC: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359' },
      avalanche: { USDC: '0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e' },
      linea: { USDC: '0x176211869ca2b568f2a7d4ee941e073a821ee1ff' },
    });
    // BNB Smart Chain's stablecoins are Binance-Peg: no issuer contract, so no run reads it.
    expect(freezeSources(settingsOf(ENDPOINTS))).toEqual([
      'ethereum',
      'arbitrum',
      'base',
      'optimism',
      'polygon',
      'avalanche',
      'linea',
    ]);
  });

  test('when a network has no endpoint, then it is not read; each read network carries its chain id', () => {
    const settings = settingsOf({ ARBITRUM_RPC_URL: ENDPOINTS.ARBITRUM_RPC_URL });

    expect(freezeSources(settings)).toEqual(['arbitrum']);
    expect(settings.evm.arbitrum).toMatchObject({
      chain: 'arbitrum',
      chainId: 42161,
      rpcVariable: 'ARBITRUM_RPC_URL',
      rpcUrl: 'http://arb.invalid',
      confirmations: 12,
      windowBlocks: 2000,
      startBlock: null,
    });
  });

  test('when FREEZES_EVM_CONTRACTS replaces, adds and turns off contracts, then each network reads that', () => {
    const contracts = contractsOf({
      ...ENDPOINTS,
      FREEZES_EVM_CONTRACTS: JSON.stringify({
        arbitrum: { USDC: 'off' },
        base: { USDC: `0x${'AB'.repeat(20)}`, startBlock: 42 },
        'binance-smart-chain': { USDT: `0x${'cd'.repeat(20)}` },
        ethereum: { USDT: 'off' },
      }),
    });

    expect(contracts.arbitrum).toBeUndefined();
    expect(contracts.base).toEqual({ USDC: `0x${'ab'.repeat(20)}` });
    expect(contracts['binance-smart-chain']).toEqual({ USDT: `0x${'cd'.repeat(20)}` });
    expect(contracts.ethereum).toEqual({ USDC: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' });
  });

  test('when a start block is set, then only its network starts there; FREEZES_START_BLOCK is Ethereum’s', () => {
    const settings = settingsOf({
      ...ENDPOINTS,
      FREEZES_START_BLOCK: '20000000',
      FREEZES_EVM_CONTRACTS: '{"base":{"startBlock":2797221}}',
    });

    expect(settings.evm.ethereum?.startBlock).toBe(20_000_000n);
    expect(settings.evm.base?.startBlock).toBe(2_797_221n);
    expect(settings.evm.arbitrum?.startBlock).toBeNull();
  });

  test('when Ethereum’s older variables are set, then they still choose its contracts', () => {
    expect(
      contractsOf({
        ETHEREUM_RPC_URL: ENDPOINTS.ETHEREUM_RPC_URL,
        FREEZES_USDT_ETHEREUM_CONTRACT: 'off',
        FREEZES_USDC_ETHEREUM_CONTRACT: `0x${'EF'.repeat(20)}`,
      }),
    ).toEqual({ ethereum: { USDC: `0x${'ef'.repeat(20)}` } });
  });
});

describe('a bad FREEZES_EVM_CONTRACTS stops the start with a line that names what is wrong', () => {
  test.each([
    ['not JSON', '{arbitrum:', 'FREEZES_EVM_CONTRACTS: not JSON'],
    ['not an object', '["base"]', 'FREEZES_EVM_CONTRACTS: Invalid input: expected record, received array'],
    [
      'an unknown network',
      '{"arbitrum-one":{"USDC":"off"}}',
      'FREEZES_EVM_CONTRACTS: unknown network arbitrum-one (ethereum, binance-smart-chain, arbitrum, base',
    ],
    ['TRON, which has its own variable', '{"tron":{"USDT":"off"}}', 'FREEZES_EVM_CONTRACTS: unknown network tron'],
    [
      'a token it does not read',
      '{"base":{"usdc":"off"}}',
      'FREEZES_EVM_CONTRACTS: base: unknown key usdc (USDT, USDC, startBlock)',
    ],
    [
      'a bad address',
      '{"base":{"USDC":"0x1234"}}',
      'FREEZES_EVM_CONTRACTS: base.USDC: an EVM address (0x + 40 hex) or off',
    ],
    ['a negative start block', '{"base":{"startBlock":-1}}', 'FREEZES_EVM_CONTRACTS: base.startBlock: Too small'],
  ])('when it is %s, then the error says so', (_case, value, line) => {
    expect(startError({ FREEZES_EVM_CONTRACTS: value })).toContain(`  ${line}`);
  });

  test('when it and an older Ethereum variable set the same thing, then the start stops naming both', () => {
    const message = startError({
      FREEZES_USDC_ETHEREUM_CONTRACT: 'off',
      FREEZES_START_BLOCK: '1',
      FREEZES_EVM_CONTRACTS: '{"ethereum":{"USDC":"off","startBlock":2}}',
    });

    expect(message).toContain(
      '  FREEZES_USDC_ETHEREUM_CONTRACT: FREEZES_EVM_CONTRACTS sets ethereum.USDC too; set one of them',
    );
    expect(message).toContain('  FREEZES_START_BLOCK: FREEZES_EVM_CONTRACTS sets ethereum.startBlock too');
  });
});
