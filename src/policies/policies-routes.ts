import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireScope } from '../identity';
import { DIGITS } from '../platform/http/common-patterns';
import type { RateLimitCheck } from '../platform/rate-limit/middleware';
import { invalidParameter, parseOrThrow } from '../platform/http/errors';
import { PolicyNotFoundError, policyBodySchema, type shippedRiskModel } from '../screening';
import type { PolicyStore } from './policies-store';
import { boundsView, defaultPolicyView, policyView } from './policies-views';
import { newPolicyIdOrThrow, policyReferenceField } from './policy-id';

export interface PoliciesRouterDeps {
  policies: PolicyStore;
  /** The risk model whose policy_bounds bound every policy (the one the worker scores with). */
  model: ReturnType<typeof shippedRiskModel>;
  /**
   * The account's policy-edit limit (POLICY_EDIT_LIMIT_PER_MINUTE), on every PUT and DELETE here: each edit writes a
   * version (and prunes old ones), so edits are bounded per account like submits; 429 before anything is written.
   */
  limitEdits: RateLimitCheck;
}

export const setDefaultPolicyBody = z
  .object(
    {
      policy_id: policyReferenceField
        .nullable()
        .meta({ description: "The policy new jobs use when they name none; null or 'standard': the standard model" }),
    },
    { error: 'a JSON object with policy_id' },
  )
  .strict();

const MAX_VERSION = 2_147_483_647;

/** `?version=N`: an older version of the policy (absent: the current one). */
function versionOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !DIGITS.test(value) || Number(value) < 1 || Number(value) > MAX_VERSION)
    throw invalidParameter('version', `an integer from 1 to ${MAX_VERSION}`);
  return Number(value);
}

/**
 * The account's risk policies: PUT/GET/DELETE /policies/:id (an edit is a new version; `?version=N` reads an old
 * one), GET /policies, the account default (GET/PUT/DELETE /policies/default) and the editor's bounds.
 */
export function createPoliciesRouter(deps: PoliciesRouterDeps): Router {
  const router = Router();
  const body = policyBodySchema(deps.model);
  const view = (p: Parameters<typeof policyView>[1]) => policyView(deps.model, p);

  // The literal routes first: 'default' and 'bounds' are reserved ids, never matched as :id.
  router.get('/policies', requireScope('read'), async (_req, res) => {
    const { policies, defaultPolicyId } = await deps.policies.list(currentUser(res).id);
    res.json({ success: true, data: policies.map(view), default_policy_id: defaultPolicyId });
  });

  router.get('/policies/bounds', requireScope('read'), (_req, res) => {
    res.json({ success: true, data: boundsView(deps.model) });
  });

  router.get('/policies/default', requireScope('read'), async (_req, res) => {
    res.json(defaultPolicyView(deps.model, await deps.policies.getDefault(currentUser(res).id)));
  });

  router.put('/policies/default', requireScope('screening'), deps.limitEdits, async (req, res) => {
    const { policy_id } = parseOrThrow(setDefaultPolicyBody, req.body);
    res.json(defaultPolicyView(deps.model, await deps.policies.setDefault(currentUser(res).id, policy_id)));
  });

  router.delete('/policies/default', requireScope('screening'), deps.limitEdits, async (_req, res) => {
    await deps.policies.clearDefault(currentUser(res).id);
    res.status(204).end();
  });

  router.put('/policies/:id', requireScope('screening'), deps.limitEdits, async (req, res) => {
    const id = newPolicyIdOrThrow(req.params.id);
    const parsed = parseOrThrow(body, req.body);
    const { policy, outcome } = await deps.policies.put(currentUser(res).id, id, parsed);
    res.status(outcome === 'created' ? 201 : 200).json({ success: true, data: view(policy) });
  });

  router.get('/policies/:id', requireScope('read'), async (req, res) => {
    const version = versionOf(req.query.version);
    const policy = await deps.policies.get(currentUser(res).id, req.params.id, version);
    if (!policy) throw new PolicyNotFoundError(req.params.id);
    res.json({ success: true, data: view(policy) });
  });

  router.delete('/policies/:id', requireScope('screening'), deps.limitEdits, async (req, res) => {
    if (!(await deps.policies.delete(currentUser(res).id, req.params.id))) throw new PolicyNotFoundError(req.params.id);
    res.status(204).end();
  });

  return router;
}
