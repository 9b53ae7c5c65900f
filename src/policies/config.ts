import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** How often one account may edit its policies. */
const variables = z.object({
  /** Policy edits (PUT/DELETE of /api/v1/policies...) one account may make per minute; 0 = no limit. */
  POLICY_EDIT_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(30),
});

export const policiesConfigSlice = configSlice({ variables });

export type PoliciesConfig = SliceConfig<typeof policiesConfigSlice>;
