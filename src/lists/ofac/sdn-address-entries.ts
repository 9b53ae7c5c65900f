import { chainOf, listedAddress, normaliseAddress } from './sdn-address';
import type { SdnDocument } from './sdn-document-reader';
import type { SdnAddressEntry } from './sdn-issue';

/**
 * One entry per (chain, address, party): the same address written twice for a party (once per asset, as an ETH
 * and a USDT address can be the same 0x key) is one entry, the first in document order; an address listed for
 * several parties is one entry per party.
 */
export function addressEntries(document: SdnDocument): SdnAddressEntry[] {
  const seen = new Set<string>();
  const entries: SdnAddressEntry[] = [];
  for (const [profileId, party] of document.parties) {
    const sanctions = document.sanctions.get(profileId);
    for (const { asset, address: written } of party.addresses) {
      const normalised = normaliseAddress(written);
      const chain = chainOf(asset, normalised);
      const address = listedAddress(chain, normalised);
      const key = `${chain}\u0000${address}\u0000${party.uid}`;
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push({
        chain,
        asset,
        address,
        sdnUid: party.uid,
        sdnName: party.name,
        sdnType: party.type,
        programs: [...(sanctions?.programs ?? [])],
        designated: sanctions?.designated ?? null,
      });
    }
  }
  return entries;
}
