/**
 * The policies API as the dashboard reads it, derived from the schemas the routes answer with
 * (src/policies/policies-views.ts). Type-only imports: esbuild erases them, so no server code is bundled. The PUT body
 * follows policyBodySchema (src/screening/engine/scoring-policy.ts); the editor sends only what differs from the
 * standard model.
 */

import type { z } from 'zod';
import type { policyBoundsResponse, policyListResponse, policySchema } from '../../../policies';

/** A policy at one version, with the values scoring uses where it sets none (`effective`). */
export type PolicyView = z.output<typeof policySchema>;
export type CategorySetting = PolicyView['categories'][string];

/** GET /api/v1/policies: the current version of each policy, and which is the account's default. */
export type PolicyList = z.output<typeof policyListResponse>;

/** GET /api/v1/policies/bounds `data`: the limits of every setting and the standard model's own values. */
export type PolicyBounds = z.output<typeof policyBoundsResponse>['data'];

/** [lowest, highest] a setting may take, from the model file's `policy_bounds`. */
export type Range = readonly [number, number];

/** PUT /api/v1/policies/:id body. */
export interface PolicyBody {
  name?: string;
  description?: string | null;
  categories?: Record<string, CategorySetting>;
  indirect?: { min_share?: number; min_usd?: number; max_hops?: number };
  levels?: { MEDIUM?: number; HIGH?: number };
  default?: boolean;
}

/** The policy that scored an answer, as answers name it. */
export interface PolicyRef {
  id: string;
  version: number;
  name: string;
}
