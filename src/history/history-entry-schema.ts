import { z } from 'zod';
import { oneOfAnyCase } from '../platform/http/input-patterns';
import { UUID_RE } from '../platform/http/common-patterns';

/**
 * The history webhook body (spec 4.5 / 2.7) as parseHistoryEntry reads it, for the OpenAPI document.
 * The validator stays hand-written because the contract fixes its messages and their order;
 * test/unit/history-entry-schema.test.ts holds this description to it, value by value.
 *
 * Text fields are trimmed before their 512-character limit is checked; the schema's maxLength counts
 * the untrimmed text, so it is (only) stricter for text padded with white space.
 */
const MAX_TEXT = 512;
const text = () => z.string().trim().max(MAX_TEXT).nullable().optional();
const requiredText = (description: string) => z.string().trim().min(1).max(MAX_TEXT).meta({ description });
/** A UUID, or blank / null for "none". */
const optionalUuid = (description: string) =>
  z
    .string()
    .regex(new RegExp(`^\\s*(?:${UUID_RE.source.slice(1, -1).replace(/\[0-9a-f\]/g, '[0-9a-fA-F]')})?\\s*$`))
    .nullable()
    .optional()
    .meta({ description });
const jsonObject = (description: string) =>
  z.record(z.string(), z.unknown()).nullable().optional().meta({ description });

const common = {
  userId: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .meta({
      description: 'Internal user UUID or Clerk user id; a user not known yet is attached when it appears',
      examples: ['user_2abc'],
    }),
  requestId: optionalUuid(
    'Idempotency: a repeat of (userId, requestId) answers 201 with the first record; generated when absent',
  ),
  responseId: optionalUuid('The screening response id, if any'),
  blockchain: text(),
  transactionHash: text(),
  address: text(),
  entityId: text(),
  entityName: text(),
  errorMessage: text().meta({
    description: 'Defaults to "Request failed with status <statusCode>" for statusCode >= 400',
  }),
  clientAppId: text(),
  clientAppName: text(),
  statusCode: z
    .int()
    .min(100)
    .max(599)
    .nullable()
    .optional()
    .meta({ description: 'HTTP status of the recorded request; default 200' }),
  riskLevel: z
    .string()
    .regex(oneOfAnyCase(['low', 'medium', 'high', 'critical'], { optional: true }))
    .nullable()
    .optional()
    .meta({ description: 'low, medium, high or critical (any letter case; blank = none)' }),
  riskScore: z.number().min(0).max(100).nullable().optional(),
  requestPayload: jsonObject('The request as the caller received it'),
  responsePayload: jsonObject('The response as the caller received it'),
  responseSummary: jsonObject('Compact summary shown in lists'),
  metadata: jsonObject('Free-form; default {}'),
};

const activityType = (type: 'kyt' | 'kya' | 'kye') =>
  z
    .string()
    .regex(oneOfAnyCase([type]))
    .meta({ description: `${type} (any letter case)`, examples: [type] });

export const historyEntryBodySchema = z.union([
  z
    .object({
      ...common,
      activityType: activityType('kyt'),
      blockchain: requiredText('Required for kyt'),
      transactionHash: requiredText('Required for kyt'),
    })
    .meta({ title: 'KYT record' }),
  z
    .object({
      ...common,
      activityType: activityType('kya'),
      blockchain: requiredText('Required for kya'),
      address: requiredText('Required for kya'),
    })
    .meta({ title: 'KYA record' }),
  z
    .object({ ...common, activityType: activityType('kye'), entityId: requiredText('Required for kye') })
    .meta({ title: 'KYE record' }),
]);
