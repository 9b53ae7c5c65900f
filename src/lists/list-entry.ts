/**
 * One address of a sanctions list issue, as a list version stores it (src/lists/ofac parses OFAC's issues into these).
 */
export interface ListEntry {
  chain: string;
  asset: string | null;
  address: string;
  sdnUid: string;
  sdnName: string | null;
  sdnType: string | null;
  programs: string[];
  /** YYYY-MM-DD, OFAC's designation date. */
  designated: string | null;
}

/** A whole issue of a list, ready to become a version. */
export interface ListIssue {
  list: 'ofac';
  /** Where it was read from: a file path or URL (shown in GET /api/v1/lists). */
  source: string;
  /** YYYY-MM-DD: the issue's own date (OFAC's DateOfIssue, or the newest date a bundled file holds). */
  issueDate: string;
  sha256: string;
  entries: ListEntry[];
  /**
   * Entries the issue already knows to be delisted (the bundled file keeps Tornado Cash's, delisted 2025-03-21):
   * stored as past listings (listed and delisted), never as listed now.
   */
  delisted?: (ListEntry & { listedOn: string; delistedOn: string })[];
  /** When each entry was first listed, if the source says (else the issue date). */
  listedOn?: ReadonlyMap<string, string>;
}

/** An entry's identity across issues: the same address of the same party on the same chain. */
export const entryKey = (e: Pick<ListEntry, 'chain' | 'address' | 'sdnUid'>): string =>
  `${e.chain}\u0000${e.address}\u0000${e.sdnUid}`;
