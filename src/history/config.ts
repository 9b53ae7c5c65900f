import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** Who may post to the history webhook. */
const variables = z.object({
  /** Shared secret of the history webhook (header X-Activity-Webhook-Secret); unset = every post is refused. */
  ACTIVITY_WEBHOOK_SECRET: z.string().min(16, 'ACTIVITY_WEBHOOK_SECRET must be at least 16 characters').optional(),
});

export const historyConfigSlice = configSlice({ variables });

export type HistoryConfig = SliceConfig<typeof historyConfigSlice>;
