import type { ClusterLink } from '../domain/cluster-link';

/**
 * What reading one member produced: the links to apply, and the addresses whose transactions were read completely
 * enough to be marked expanded (`truncated`: only in part). Null when the budget or the signal stopped the step
 * before it could conclude: the member stays unexpanded, for a later expansion to read.
 */
export type MemberExpansion = {
  links: ClusterLink[];
  read: { address: string; truncated: boolean }[];
} | null;

export type ExpandMember = (member: string) => Promise<MemberExpansion>;
