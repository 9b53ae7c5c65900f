import { z } from 'zod';

/** One label found on a member of the cluster: what it says, who says it, and how sure that source is. */
export const clusterLabelSchema = z.object({
  address: z.string().describe('The member of the cluster the label is on'),
  name: z.string().nullable(),
  category: z.string(),
  source: z.string().nullable().describe('`custom` for the account’s own list, the list or dataset otherwise'),
  confidence: z
    .number()
    .describe(
      'The source’s confidence on GraphSense’s TagPack scale: ' + '100 owns the key, 60 authority, 20 web crawl',
    ),
});

/** One merge that built the cluster: the two addresses it joined, the heuristic and the transaction that showed it. */
export const clusterMergeSchema = z.object({
  a: z.string(),
  b: z.string(),
  heuristic: z.string().describe('common_input (spent together) or deposit_address (EVM deposit forwarding)'),
  txid: z.string(),
  merged_at: z.iso.datetime(),
});

export const clusterSchema = z.object({
  chain: z.string(),
  address: z.string(),
  cluster_id: z.string().nullable().describe('Null when no transaction read so far joins the address to another'),
  size: z.int().min(1),
  partial: z
    .boolean()
    .describe('The cluster was grown only in part (a call budget, a deadline or never read): it may hold more'),
  members: z.array(z.string()).describe('The first members, at most `limit`'),
  labels: z.array(clusterLabelSchema),
  merges: z.array(clusterMergeSchema).describe('The merges that built it, oldest first, at most `limit`'),
});

export const clusterResponse = z.object({ success: z.literal(true), data: clusterSchema });
export type ClusterView = z.input<typeof clusterSchema>;
