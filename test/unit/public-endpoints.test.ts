import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/app/config';
import { configuredChains } from '../../src/screening/chains/registry';
import { PUBLIC_ENDPOINTS } from '../../src/screening/chains/public-endpoints';
import { SUPPORTED_CHAINS } from '../../src/screening/chains/chain';
import { chainCapabilities } from '../../src/screening/chains/chain-capabilities';

/** The chains no free public provider serves in a format the service reads (docs/configuration.md says so). */
const NO_PUBLIC: readonly string[] = ['bitcoin-cash', 'dogecoin'];

const DOCS = readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'configuration.md'), 'utf8');

describe('CHAIN_ENDPOINTS=public', () => {
  test('when it is not set, then no chain has an endpoint the operator did not give', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(configuredChains(config)).toEqual([]);
  });

  test(
    'when it is set, ' + 'then every chain with a public provider has an endpoint, and one the operator gave wins',
    () => {
      const config = loadConfig({
        NODE_ENV: 'development',
        CHAIN_ENDPOINTS: 'public',
        BASE_RPC_URL: 'http://127.0.0.1:8545',
      });
      expect(configuredChains(config).sort()).toEqual(SUPPORTED_CHAINS.filter((c) => !NO_PUBLIC.includes(c)).sort());
      expect(config.BASE_RPC_URL).toBe('http://127.0.0.1:8545');
      expect(config.ARBITRUM_RPC_URL).toBe('https://arb1.arbitrum.io/rpc');
      expect(config.BITCOIN_ESPLORA_URL).toBe('https://blockstream.info/api');
      expect(config.LITECOIN_ESPLORA_URL).toBe('https://litecoinspace.org/api');
    },
  );

  test('when Bitcoin Cash and Dogecoin have no public Esplora, then the docs say so and no URL is made up', () => {
    const config = loadConfig({ CHAIN_ENDPOINTS: 'public' });
    expect([config.BITCOIN_CASH_ESPLORA_URL, config.DOGECOIN_ESPLORA_URL]).toEqual([undefined, undefined]);
    expect(DOCS).toMatch(/`BITCOIN_CASH_ESPLORA_URL`, `DOGECOIN_ESPLORA_URL` \| none \|/);
  });

  test('when bitcoin is another network or read from a node, then no public Esplora is filled in', () => {
    expect(loadConfig({ CHAIN_ENDPOINTS: 'public', BITCOIN_NETWORK: 'regtest' }).BITCOIN_ESPLORA_URL).toBeUndefined();
    expect(
      loadConfig({ CHAIN_ENDPOINTS: 'public', BITCOIN_RPC_URL: 'http://u:p@127.0.0.1:18334' }).BITCOIN_ESPLORA_URL,
    ).toBeUndefined();
  });

  test('when production asks for it, then the service refuses to start, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', CHAIN_ENDPOINTS: 'public' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', CHAIN_ENDPOINTS: 'public' })).toThrow(/CHAIN_ENDPOINTS: public/);
  });

  test('when the preset is documented, then docs/configuration.md lists each provider, its URL and its limits', () => {
    for (const endpoint of PUBLIC_ENDPOINTS)
      expect({ url: endpoint.url, listed: DOCS.includes(endpoint.url) && DOCS.includes(endpoint.limits) }).toEqual({
        url: endpoint.url,
        listed: true,
      });
  });

  test(
    'when the capabilities are listed with the preset, then every chain reads on chain, each from its ' + 'source',
    () => {
      const capabilities = chainCapabilities(loadConfig({ CHAIN_ENDPOINTS: 'public' }));
      const withProvider = capabilities.filter((c) => !NO_PUBLIC.includes(c.chain));
      expect(withProvider.every((c) => c.reads === 'on_chain' && c.kyt && c.exposure)).toBe(true);
      const byChain = Object.fromEntries(capabilities.map((c) => [c.chain, c]));
      expect(byChain.bitcoin).toMatchObject({ historySource: 'Esplora', clustering: true });
      expect(byChain.litecoin).toMatchObject({ name: 'Litecoin', historySource: 'Esplora', clustering: true });
      for (const chain of NO_PUBLIC)
        expect(byChain[chain]).toMatchObject({ reads: 'reference_data_only', kyt: false, historySource: null });
      expect(byChain.ripple).toMatchObject({ historySource: 'rippled JSON-RPC', clustering: false });
      expect(byChain.arbitrum).toMatchObject({ name: 'Arbitrum One', clustering: true });
      const none = chainCapabilities(loadConfig({ BITCOIN_RPC_URL: 'http://u:p@127.0.0.1:18334' }));
      expect(none.filter((c) => c.reads === 'on_chain')).toEqual([
        expect.objectContaining({ chain: 'bitcoin', historySource: 'bitcoin node (address index)' }),
      ]);
    },
  );
});
