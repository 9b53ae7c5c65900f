import { z } from 'zod';
import type { CustomLabel } from './custom-labels-store';

export const customLabelSchema = z.object({
  id: z.uuid(),
  chain: z.string(),
  address: z.string().describe('Normalised as a screening request normalises it'),
  category: z.string().describe('A category of data/risk/risk_categories.json, or `allow`'),
  name: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.iso.datetime(),
});

export const customLabelResponse = z.object({ success: z.literal(true), data: customLabelSchema });
export const customLabelListResponse = z.object({
  success: z.literal(true),
  data: z.array(customLabelSchema),
  pagination: z.object({ total: z.int().min(0), limit: z.int().min(1), offset: z.int().min(0) }),
});
export const deletedCustomLabelResponse = z.object({
  success: z.literal(true),
  data: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});

export function customLabelView(l: CustomLabel): z.input<typeof customLabelSchema> {
  return {
    id: l.id,
    chain: l.chain,
    address: l.address,
    category: l.category,
    name: l.name,
    note: l.note,
    created_at: l.createdAt.toISOString(),
  };
}
