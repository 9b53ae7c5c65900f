import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** How fresh a screened address's wallet cluster is kept. */
const variables = z.object({
  /** An address whose transactions were read for its cluster longer ago than this is read again (docs/entities.md). */
  CLUSTER_REREAD_AFTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400_000)
    .default(3_600_000),
});

export const entitiesConfigSlice = configSlice({ variables });

export type EntitiesConfig = SliceConfig<typeof entitiesConfigSlice>;
