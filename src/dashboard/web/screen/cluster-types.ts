/**
 * The wallet-cluster API as the dashboard reads it, derived from the schema GET /api/v1/clusters/:chain/:address
 * answers with (src/entities/clusters-views.ts). Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type { clusterResponse } from '../../../entities';
import type { FullResponse, Hit } from './job-types';

/** GET /api/v1/clusters/:chain/:address `data`: the cluster, its labels and the merges that built it. */
export type ClusterView = z.output<typeof clusterResponse>['data'];
export type ClusterLabel = ClusterView['labels'][number];
export type ClusterMerge = ClusterView['merges'][number];

/** /fullresponse `clusters`: the clusters (size > 1) of the screened parties and the crawled addresses. */
export type JobCluster = NonNullable<FullResponse['clusters']>[number];

/** A finding reached through a wallet cluster: the cluster, the labelled member and the merges that join them. */
export type ViaCluster = NonNullable<Hit['via_cluster']>;
