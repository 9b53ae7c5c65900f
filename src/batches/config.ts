import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** How a batch workflow paces its item jobs. */
const variables = z.object({
  /**
   * Batch screening (POST /api/v1/kyt/batch): how many of a batch's item jobs its workflow runs at once, and after
   * how many item starts it continues as new (a run's workflow history stays small whatever the batch size).
   */
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(20),
  BATCH_CONTINUE_AS_NEW_AFTER: z.coerce.number().int().min(1).max(5_000).default(250),
});

export const batchesConfigSlice = configSlice({ variables });

export type BatchesConfig = SliceConfig<typeof batchesConfigSlice>;
