import { screeningConfigSlice } from '../../src/screening/config';
import { EVM_CHAIN_NAMES, SUPPORTED_CHAINS } from '../../src/screening/chains/chain';
import { EVM_NETWORKS, evmNetworkOfChainId } from '../../src/screening/chains/evm-networks';
import { normalizeAddress, TXID_FORMAT_HINT } from '../../src/screening/chains/target-format';
import { CHAINS } from '../../src/dashboard/web/screen/screen-words';

/** One row per EVM network: what the rest of the service reads of it must agree with the row. */
describe('EVM networks', () => {
  test(
    'when the networks are listed, then each has its own chain id and an endpoint variable of the screening ' +
      'config',
    () => {
      const ids = EVM_CHAIN_NAMES.map((chain) => EVM_NETWORKS[chain].chainId);
      expect(new Set(ids).size).toBe(ids.length);
      const variables = Object.keys(screeningConfigSlice.variables.shape);
      for (const chain of EVM_CHAIN_NAMES) {
        const network = EVM_NETWORKS[chain];
        expect({ chain, variable: variables.includes(network.rpcVariable) }).toEqual({ chain, variable: true });
        expect(evmNetworkOfChainId(network.chainId)).toBe(chain);
      }
      expect(evmNetworkOfChainId(31337)).toBeUndefined();
    },
  );

  test('when an address or a transaction of one EVM network is read on another, then it is the same key', () => {
    const mixed = '0x8589427373D6D84E98730D7795D8f6f8731FDA16';
    const keys = EVM_CHAIN_NAMES.map((chain) => normalizeAddress(chain, mixed));
    expect(new Set(keys)).toEqual(new Set(['0x8589427373d6d84e98730d7795d8f6f8731fda16']));
    expect(EVM_CHAIN_NAMES.map((chain) => TXID_FORMAT_HINT[chain])).toEqual(
      EVM_CHAIN_NAMES.map(() => '64 hex characters, optionally prefixed with 0x'),
    );
  });

  test(
    'when the dashboard lists the chains, then it lists every chain the engine knows, EVM networks by their ' + 'names',
    () => {
      expect(CHAINS.map(([id]) => id).sort()).toEqual([...SUPPORTED_CHAINS].sort());
      for (const chain of EVM_CHAIN_NAMES)
        expect(CHAINS.find(([id]) => id === chain)?.[1]).toBe(EVM_NETWORKS[chain].displayName);
    },
  );
});
