import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireAdmin, requireScope } from '../identity';
import type { CreditStore } from './credits-store';
import type { UserStore } from '../identity';
import type { CreditGrantMetrics } from './metrics/ports';
import { flatError, notFound, parseOrThrow } from '../platform/http/errors';
import { PLATFORM_ERRORS } from '../platform/errors';

export const grantBody = z.object(
  {
    userId: z
      .string({ error: 'a Clerk user id or an internal user UUID' })
      .trim()
      .min(1, 'a Clerk user id or an internal user UUID')
      .max(128),
    amount: z
      .number({ error: 'a positive integer number of credits (at most 1000000000)' })
      .int('a positive integer number of credits (at most 1000000000)')
      .positive('a positive integer number of credits (at most 1000000000)')
      .max(1_000_000_000, 'a positive integer number of credits (at most 1000000000)'),
    reason: z
      .string({ error: 'a string of at most 500 characters' })
      .max(500, 'a string of at most 500 characters')
      .optional(),
    idempotencyKey: z
      .string({ error: 'a string of 1 to 200 characters' })
      .min(1, 'a string of 1 to 200 characters')
      .max(200, 'a string of 1 to 200 characters')
      .optional(),
  },
  { error: 'a JSON object' },
);

export const grantResponse = z.object({
  success: z.literal(true),
  data: z.object({
    userId: z.uuid(),
    balance: z.int(),
    transactionId: z.uuid(),
    duplicate: z.boolean().meta({
      description: 'true when this idempotencyKey had already granted the same credits (nothing new was granted)',
    }),
  }),
});
export const balanceResponse = z.object({
  success: z.literal(true),
  data: z.object({
    balance: z.int(),
    reserved: z.int().min(0),
    available: z.int(),
    debt: z
      .int()
      .min(0)
      .meta({
        description:
          'credits taken back by a refund or reversal after they were spent; above 0, ' +
          'new jobs answer 402 CREDITS_IN_DEBT until a payment repays it',
      }),
  }),
});

export function createCreditsRouter(deps: {
  credits: CreditStore;
  users: UserStore;
  metrics: CreditGrantMetrics;
}): Router {
  const router = Router();

  /**
   * Admin grant through the same stored function as the payment workflows. The ledger key is
   * 'rest:<admin id>:<idempotencyKey>' so admins cannot collide; reusing a key for a different
   * grant is a 409, never a silent success.
   */
  router.post('/credits/grant', requireScope('billing'), requireAdmin, async (req, res) => {
    const body = parseOrThrow(grantBody, req.body);
    const admin = currentUser(res);
    const target = await deps.users.findByAnyId(body.userId);
    if (!target) throw notFound('User');
    const key = `rest:${admin.id}:${body.idempotencyKey ?? randomUUID()}`;
    const result = await deps.credits.grant({
      userId: target.id,
      amount: body.amount,
      idempotencyKey: key,
      reason: body.reason ?? null,
      source: 'admin',
      metadata: { grantedBy: admin.id, requestedUserId: body.userId },
    });
    if (result.duplicate) {
      const first = await deps.credits.findTransaction(key);
      if (!first || first.userId !== target.id || first.amount !== body.amount) {
        throw flatError(
          PLATFORM_ERRORS.IDEMPOTENCY_KEY_REUSED,
          'idempotencyKey was already used for a different grant',
        );
      }
    } else {
      deps.metrics.creditsGranted('admin', body.amount);
    }
    res.json({
      success: true,
      data: {
        userId: target.id,
        balance: result.balance,
        transactionId: result.transactionId,
        duplicate: result.duplicate,
      },
    });
  });

  router.get('/credits/balance', requireScope('read'), async (_req, res) => {
    const { balance, reserved, available, debt } = await deps.credits.balance(currentUser(res).id);
    res.json({ success: true, data: { balance, reserved, available, debt } });
  });

  return router;
}
