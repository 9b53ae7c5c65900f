import { Router } from 'express';
import { z } from 'zod';
import { generateApiKey } from './api-key-format';
import { currentMember, currentUser, requireAdmin } from './authenticate';
import { TEAM_ROLES } from './team';
import { InsufficientTeamRoleError } from './team-errors';
import type { CreditStore } from '../billing';
import type { IdentityConfig } from './config';
import type { UserStore } from './users-store';
import type { IdentityCache } from './identity-cache';
import { notFound, parseOrThrow } from '../platform/http/errors';
import { API_KEY_SCOPES, InsufficientScopeError, requireScope, scopesOf } from './scopes';

const SCOPES_EXPECTED = `a non-empty array of ${API_KEY_SCOPES.join(', ')}`;
const scopesSchema = z
  .array(z.enum(API_KEY_SCOPES, { error: `each one of ${API_KEY_SCOPES.join(', ')}` }), { error: SCOPES_EXPECTED })
  .min(1, SCOPES_EXPECTED)
  .meta({
    description:
      "What the key may do (docs/api.md#key-scopes-and-limits), at most the caller's own; absent = the " +
      "caller's scopes (every scope for a full key or a dashboard session)",
  });

export const createApiKeyBody = z.object(
  {
    name: z
      .string({ error: 'a string of 1 to 100 characters' })
      .trim()
      .min(1, 'a string of 1 to 100 characters')
      .max(100, 'a string of 1 to 100 characters')
      .optional(),
    scopes: scopesSchema.optional(),
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
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1)
    .meta({ description: 'What the key may do (docs/api.md#key-scopes-and-limits)' }),
  createdBy: z.uuid().meta({
    description:
      'The team member who made the key (a user id); its requests act as them, ' +
      "and it is revoked when they leave the team. A key from before teams: the account's own id",
  }),
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
    scopes: z
      .array(z.enum(API_KEY_SCOPES))
      .meta({ description: "What this request's credentials may do: the key's scopes, every scope for a session" }),
    credits: z.object({ balance: z.int(), reserved: z.int().min(0), available: z.int(), debt: z.int().min(0) }),
    account: z
      .object({ id: z.uuid(), kind: z.enum(['person', 'organization']) })
      .meta({ description: "The account this request acts for (`id` above): the person's own, or a team's" }),
    member: z.object({ id: z.uuid(), role: z.enum(TEAM_ROLES) }).meta({
      description: 'The person acting for the account: the member who made the key, or the signed-in person',
    }),
  }),
});

export interface ApiKeysRouterDeps {
  users: UserStore;
  credits: CreditStore;
  config: Pick<IdentityConfig, 'MAX_ACTIVE_API_KEYS_PER_ACCOUNT'>;
  /**
   * This instance's cached credentials: a revoked key or a changed tier is dropped before the answer, so the next
   * request here already sees it (other instances drop theirs on the change's outbox event).
   */
  identityCache?: Pick<IdentityCache, 'forgetUser' | 'forgetKey'>;
}

/** The account's API Keys area: a key is shown once, at creation; only its hash is kept. */
export function createApiKeysRouter(deps: ApiKeysRouterDeps): Router {
  const router = Router();

  router.post('/api-keys', requireScope('keys'), async (req, res) => {
    const body = parseOrThrow(createApiKeyBody, req.body ?? {});
    const user = currentUser(res);
    // A key mints at most its own scopes, so a narrow key that leaks cannot widen itself.
    const scopes = body.scopes ?? scopesOf(user);
    const beyond = scopes.find((s) => !scopesOf(user).includes(s));
    if (beyond) throw new InsufficientScopeError(beyond);
    const key = generateApiKey();
    // The key belongs to the account and acts as the member who made it (it stops when they leave the team).
    const record = await deps.users.createApiKey(user.id, body.name ?? 'default', key, {
      scopes,
      maxActive: deps.config.MAX_ACTIVE_API_KEYS_PER_ACCOUNT,
      createdBy: currentMember(res).id,
    });
    res.status(201).json({ success: true, data: { ...record, key } });
  });

  router.get('/api-keys', requireScope('read'), async (_req, res) => {
    const keys = await deps.users.listApiKeys(currentUser(res).id);
    res.json({ success: true, data: keys, meta: { total: keys.length } });
  });

  router.delete('/api-keys/:id', requireScope('keys'), async (req, res) => {
    // A team admin revokes any of the account's keys; another member only the keys they made themselves.
    const member = currentMember(res);
    const revoked = await deps.users.revokeApiKey(
      currentUser(res).id,
      req.params.id,
      member.role === 'admin' ? undefined : member.id,
    );
    if (revoked === 'not_theirs') throw new InsufficientTeamRoleError(member.role, ['admin']);
    if (!revoked) throw notFound('API key');
    deps.identityCache?.forgetKey(revoked.id);
    res.json({ success: true, data: revoked });
  });

  /** Admin: a key's market-data tier (free 60/min, pro 300/min, enterprise its own figure). */
  router.put('/api-keys/:id/rate-limit', requireScope('keys'), requireAdmin, async (req, res) => {
    const body = parseOrThrow(rateLimitBody, req.body);
    const updated = await deps.users.setApiKeyRateLimit(
      req.params.id as string,
      body.tier,
      body.requestsPerMinute ?? null,
    );
    if (!updated) throw notFound('API key');
    deps.identityCache?.forgetKey(updated.id);
    res.json({ success: true, data: updated });
  });

  /** Who am I: the ids an operator needs for a grant, plus the balance. */
  router.get('/me', requireScope('read'), async (_req, res) => {
    const user = currentUser(res);
    const credits = await deps.credits.balance(user.id);
    res.json({
      success: true,
      data: {
        id: user.id,
        clerkUserId: user.clerkUserId,
        email: user.email,
        role: user.role,
        scopes: scopesOf(user),
        credits,
        account: { id: user.id, kind: user.kind ?? 'person' },
        member: { id: currentMember(res).id, role: currentMember(res).role },
      },
    });
  });

  return router;
}
