import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bech32 } from '@scure/base';

export interface ListOnlyTarget {
  chain: 'bitcoin';
  address: string;
  reference_id: string;
}

/** Bitcoin addresses the shipped reference data hold (OFAC first, then labels), distinct, in file order. */
function listedBitcoinAddresses(dataDir: string): string[] {
  const seen = new Set<string>();
  for (const file of ['sanctions_ofac.csv', 'address_labels.csv']) {
    const lines = readFileSync(path.join(dataDir, file), 'utf8').split('\n');
    for (const line of lines) {
      // Both files have the chain first; the address is the next column without commas (or quotes) in it.
      const cells = line.split(',');
      if (cells[0] !== 'bitcoin') continue;
      const address = file === 'sanctions_ofac.csv' ? cells[2] : cells[1];
      if (address) seen.add(address);
    }
  }
  return [...seen];
}

/** A fresh P2WPKH (bc1q…) address: valid checksum, on no list. */
const freshBech32 = () => bech32.encode('bc', [0, ...bech32.toWords(randomBytes(20))]);

/**
 * `n` KYA targets screened on the reference data only: bitcoin, for which neither the bench stack nor the fault
 * suite configures a node, so no chain call is made and every item costs 1 credit. One in `listedEvery` is a
 * listed address (sanctioned or labelled: a hit, a HIGH or MEDIUM answer), the rest fresh addresses (a clean answer).
 */
export function listOnlyTargets(
  n: number,
  options: { listedEvery?: number; dataDir?: string; referencePrefix?: string } = {},
): ListOnlyTarget[] {
  const listedEvery = options.listedEvery ?? 4;
  const listed = listedBitcoinAddresses(options.dataDir ?? 'data/risk');
  const prefix = options.referencePrefix ?? 'item';
  return Array.from({ length: n }, (_, i) => ({
    chain: 'bitcoin' as const,
    address: i % listedEvery === 0 ? (listed[(i / listedEvery) % listed.length] as string) : freshBech32(),
    reference_id: `${prefix}-${i}`,
  }));
}
