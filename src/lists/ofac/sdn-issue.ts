/** One digital currency address of one party in an issue of OFAC's SDN list. */
export interface SdnAddressEntry {
  /** bitcoin, ethereum, tron, binance-smart-chain…: the chain names of data/risk/sanctions_ofac.csv. */
  chain: string;
  /** OFAC's asset code: XBT, ETH, USDT… */
  asset: string;
  /** EVM and bech32 addresses lower-cased, every other format verbatim. */
  address: string;
  /** The party's FixedRef (its profile ID): the CSV's sdn_uid. */
  sdnUid: string;
  /** The primary name, "LAST, First" for individuals. */
  sdnName: string | null;
  /** Individual, Entity, Transport… */
  sdnType: string | null;
  /** Program codes (CYBER2, DPRK3…) of the party's sanctions entries. */
  programs: string[];
  /** YYYY-MM-DD: the party's earliest "Created" entry event. */
  designated: string | null;
}

/** An issue of the SDN list, reduced to its digital currency addresses. */
export interface SdnIssue {
  /** YYYY-MM-DD, from the document's DateOfIssue. */
  issueDate: string;
  /** One per (chain, address, party), in document order. */
  entries: SdnAddressEntry[];
  /** Of the XML bytes read (the uncompressed document). */
  sha256: string;
  bytes: number;
}
