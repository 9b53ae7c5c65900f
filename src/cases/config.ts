import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** seconds of one severity's SLA: at least 1 s (tests), at most a year. */
const slaSeconds = z.number().int().min(1).max(31_536_000);
const severitySla = z.strictObject({ assign: slaSeconds, decide: slaSeconds });
const caseSlaSchema = z.strictObject({
  low: severitySla,
  medium: severitySla,
  high: severitySla,
  critical: severitySla,
});
const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** How many cases an account may hold open, the default SLA, and how long a false positive keeps quiet. */
const variables = z.object({
  /** Open cases (not closed) one account may hold; an alert that would open one more is logged, not opened. */
  MAX_OPEN_CASES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * The default SLA of a case per severity, seconds: `assign` (unassigned) and `decide` (not closed) before it
   * escalates. An account sets its own with PUT /api/v1/cases/sla (docs/cases.md).
   */
  CASE_SLA_SECONDS: z
    .string()
    .default(
      '{"low":{"assign":172800,"decide":1209600},"medium":{"assign":86400,"decide":604800},' +
        '"high":{"assign":14400,"decide":172800},"critical":{"assign":3600,"decide":86400}}',
    )
    .transform((text, ctx) => {
      const parsed = caseSlaSchema.safeParse(safeJson(text));
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: 'a JSON object {low|medium|high|critical: {assign, decide}} of seconds',
        });
        return z.NEVER;
      }
      return parsed.data;
    }),
  /** How long a false positive keeps the same evidence on the same subject from alerting again. */
  CASE_FALSE_POSITIVE_SUPPRESSION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
});

export const casesConfigSlice = configSlice({ variables });

export type CasesConfig = SliceConfig<typeof casesConfigSlice>;
