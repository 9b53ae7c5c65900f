import { Router } from 'express';
import { z } from 'zod';
import { generateApiKey } from './api-key-format';
import { currentUser, requireAdmin } from './authenticate';
import type { CreditStore } from '../billing';
import type { UserStore } from './users-store';
import { notFound, parseOrThrow } from '../platform/http/errors';

export const createApiKeyBody = z.object(
  {
    name: z
      .string({ error: 'a string of 1 to 100 characters' })
      .trim()
      .min(1, 'a string of 1 to 100 characters')
      .max(100, 'a string of 1 to 100 characters')
      .optional(),
  },
  { error: 'a JSON object' },
);

export const rateLimitBody = z
  .object(
    {
      tier: z.enum(['free', 'pro', 'enterprise'], { error: 'one of free, pro, enterprise' }),
      requestsPerMinute: z
        .number({ error: 'an integer from 1 to 1000000' })
        .int('an integer from 1 to 1000000')
        .min(1, 'an integer from 1 to 1000000')
        .max(1_000_000, 'an integer from 1 to 1000000')
        .optional(),
    },
    { error: 'a JSON object' },
  )
  .strict()
  .refine((b) => (b.tier === 'enterprise') === (b.requestsPerMinute !== undefined), {
    path: ['requestsPerMinute'],
    message:
      'an integer from 1 to 1000000 for the enterprise tier, and absent for free and pro (their rates are fixed)',
  });

/** A key as listed: its prefix only, never the secret. */
export const apiKeyRecordSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  rateLimit: z.object({ tier: z.enum(['free', 'pro', 'enterprise']), requestsPerMinute: z.int().min(1).nullable() }),
});
export const createdApiKeyResponse = z.object({
  success: z.literal(true),
  data: apiKeyRecordSchema.extend({
    key: z.string().meta({ description: 'The API key itself: shown this once, only its hash is kept' }),
  }),
});
export const apiKeyListResponse = z.object({
  success: z.literal(true),
  data: z.array(apiKeyRecordSchema),
  meta: z.object({ total: z.int().min(0) }),
});
export const apiKeyResponse = z.object({ success: z.literal(true), data: apiKeyRecordSchema });
export const meResponse = z.object({
  success: z.literal(true),
  data: z.object({
    id: z.uuid(),
    clerkUserId: z.string().nullable(),
    email: z.string().nullable(),
    role: z.enum(['user', 'admin']),
    credits: z.object({ balance: z.int(), reserved: z.int().min(0), available: z.int(), debt: z.int().min(0) }),
  }),
});

/** The account's API Keys area: a key is shown once, at creation; only its hash is kept. */
export function createApiKeysRouter(deps: { users: UserStore; credits: CreditStore }): Router {
  const router = Router();

  router.post('/api-keys', async (req, res) => {
    const body = parseOrThrow(createApiKeyBody, req.body ?? {});
    const key = generateApiKey();
    const record = await deps.users.createApiKey(currentUser(res).id, body.name ?? 'default', key);
    res.status(201).json({ success: true, data: { ...record, key } });
  });

  router.get('/api-keys', async (_req, res) => {
    const keys = await deps.users.listApiKeys(currentUser(res).id);
    res.json({ success: true, data: keys, meta: { total: keys.length } });
  });

  router.delete('/api-keys/:id', async (req, res) => {
    const revoked = await deps.users.revokeApiKey(currentUser(res).id, req.params.id);
    if (!revoked) throw notFound('API key');
    res.json({ success: true, data: revoked });
  });

  /** Admin: a key's market-data tier (free 60/min, pro 300/min, enterprise its own figure). */
  router.put('/api-keys/:id/rate-limit', requireAdmin, async (req, res) => {
    const body = parseOrThrow(rateLimitBody, req.body);
    const updated = await deps.users.setApiKeyRateLimit(
      req.params.id as string,
      body.tier,
      body.requestsPerMinute ?? null,
    );
    if (!updated) throw notFound('API key');
    res.json({ success: true, data: updated });
  });

  /** Who am I: the ids an operator needs for a grant, plus the balance. */
  router.get('/me', async (_req, res) => {
    const user = currentUser(res);
    const credits = await deps.credits.balance(user.id);
    res.json({
      success: true,
      data: { id: user.id, clerkUserId: user.clerkUserId, email: user.email, role: user.role, credits },
    });
  });

  return router;
}
