import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** How often monitors re-screen, and how many one account may keep. */
const variables = z.object({
  /** Hours between a monitor's scheduled re-screens (new transfers) when it does not set every_hours. */
  MONITOR_EVERY_HOURS_DEFAULT: z.coerce.number().int().min(1).max(8760).default(24),
  /**
   * Monitors (active or paused) one account may keep; one more is 409 MONITOR_LIMIT_REACHED. Each is a workflow that
   * lives until deleted, so even a paying account cannot start them without end.
   */
  MAX_ACTIVE_MONITORS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(100),
});

export const monitorsConfigSlice = configSlice({ variables });

export type MonitorsConfig = SliceConfig<typeof monitorsConfigSlice>;
