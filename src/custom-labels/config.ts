import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** How many custom labels one account may keep. */
const variables = z.object({
  /** Custom labels (the account's own labels) one account may keep; one more is 409 CUSTOM_LABEL_LIMIT_REACHED. */
  MAX_CUSTOM_LABELS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
});

export const customLabelsConfigSlice = configSlice({ variables });

export type CustomLabelsConfig = SliceConfig<typeof customLabelsConfigSlice>;
