import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHAINS } from '../../src/dashboard/web/screen/screen-words';
import { screeningConfigSlice } from '../../src/screening/config';
import { UTXO_NETWORK_NAMES } from '../../src/screening/chains/chain';
import { UTXO_NETWORKS } from '../../src/screening/chains/utxo-networks';

const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** One row per UTXO network: what the rest of the service reads of it must agree with the row. */
describe('UTXO networks', () => {
  test.each(UTXO_NETWORK_NAMES)(
    'when %s is listed, then its endpoint variable is a screening variable, documented and passed by compose',
    (chain) => {
      const variable = UTXO_NETWORKS[chain].esploraVariable;
      expect(Object.keys(screeningConfigSlice.variables.shape)).toContain(variable);
      expect(read('docs/configuration.md')).toContain(`\`${variable}\``);
      expect(read('docker-compose.yml')).toContain(`${variable}: \${${variable}:-}`);
    },
  );

  test('when the dashboard lists the chains, then each UTXO network has its display name', () => {
    for (const chain of UTXO_NETWORK_NAMES)
      expect(CHAINS.find(([id]) => id === chain)?.[1]).toBe(UTXO_NETWORKS[chain].displayName);
  });

  test('when the docs describe the networks, then screening.md names each with its coin', () => {
    const doc = read('docs/screening.md');
    for (const chain of UTXO_NETWORK_NAMES) {
      const { displayName, nativeSymbol } = UTXO_NETWORKS[chain];
      expect(doc).toContain(`${displayName} (\`${chain}\`, ${nativeSymbol})`);
    }
  });
});
