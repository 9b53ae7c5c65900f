import { Router } from 'express';
import { z } from 'zod';
import { currentUser, requireScope } from '../identity';
import { DIGITS, isUuid } from '../platform/http/common-patterns';
import { invalidParameter, notFound, parseOrThrow, structuredError } from '../platform/http/errors';
import {
  addressFormatHint,
  ALLOW_CATEGORY,
  type BitcoinNetwork,
  normalizeAddress,
  SUPPORTED_CHAINS,
  type shippedRiskModel,
} from '../screening';
import type { CustomLabelStore } from './custom-labels-store';
import { customLabelView } from './custom-labels-views';
import { CustomLabelLimitReachedError } from './errors';

export interface CustomLabelsRouterDeps {
  customLabels: CustomLabelStore;
  /**
   * The risk model the worker scores with: its categories (those of data/risk/risk_categories.json) are the labels'.
   */
  model: ReturnType<typeof shippedRiskModel>;
  /** Labels one account may keep (MAX_CUSTOM_LABELS_PER_ACCOUNT). */
  maxPerAccount: number;
  /** BITCOIN_NETWORK: the bitcoin addresses a label may name (those its jobs see). */
  bitcoinNetwork: BitcoinNetwork;
}

/** The categories a label may name: the risk model's (data/risk/risk_categories.json's) and `allow`. */
export const customLabelCategories = (model: ReturnType<typeof shippedRiskModel>): string[] => [
  ...Object.keys(model.document.category_severity),
  ALLOW_CATEGORY,
];

export const createCustomLabelBody = (model: ReturnType<typeof shippedRiskModel>) => {
  const categories = customLabelCategories(model) as [string, ...string[]];
  return z
    .object({
      chain: z.enum(SUPPORTED_CHAINS, { error: `one of ${SUPPORTED_CHAINS.join(', ')}` }),
      address: z.string({ error: 'an address' }).min(1, 'an address').max(128, 'at most 128 characters'),
      category: z
        .enum(categories, { error: 'a category of data/risk/risk_categories.json, or allow' })
        .meta({ description: 'A category of data/risk/risk_categories.json, or `allow`', examples: ['scam'] }),
      name: z.string({ error: 'text' }).max(200, 'at most 200 characters').nullable().optional(),
      note: z.string({ error: 'text' }).max(2000, 'at most 2000 characters').nullable().optional(),
    })
    .strict();
};

const paging = (value: unknown, fallback: number, max: number, name: string): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !DIGITS.test(value) || Number(value) > max) {
    throw invalidParameter(name, `an integer from 0 to ${max}`);
  }
  return Number(value);
};

/** POST/GET /api/v1/custom-labels and DELETE /api/v1/custom-labels/:id: the account's own labels. */
export function createCustomLabelsRouter(deps: CustomLabelsRouterDeps): Router {
  const router = Router();
  const body = createCustomLabelBody(deps.model);

  router.post('/custom-labels', requireScope('screening'), async (req, res) => {
    const parsed = parseOrThrow(body, req.body);
    const address = normalizeAddress(parsed.chain, parsed.address, deps.bitcoinNetwork);
    if (!address) throw invalidParameter('address', addressFormatHint(parsed.chain, deps.bitcoinNetwork));
    const outcome = await deps.customLabels
      .create(
        {
          userId: currentUser(res).id,
          chain: parsed.chain,
          address,
          category: parsed.category,
          name: parsed.name ?? null,
          note: parsed.note ?? null,
        },
        deps.maxPerAccount,
      )
      .catch((err: unknown) => {
        if (!(err instanceof CustomLabelLimitReachedError)) throw err;
        throw structuredError(err.entry, err.message, { limit: err.limit });
      });
    res.status(outcome.kind === 'created' ? 201 : 200).json({ success: true, data: customLabelView(outcome.label) });
  });

  router.get('/custom-labels', requireScope('read'), async (req, res) => {
    const limit = Math.max(1, paging(req.query.limit, 20, 100, 'limit'));
    const offset = paging(req.query.offset, 0, 1_000_000, 'offset');
    const chainParam = req.query.chain;
    if (chainParam !== undefined && !(SUPPORTED_CHAINS as readonly unknown[]).includes(chainParam))
      throw invalidParameter('chain', `one of ${SUPPORTED_CHAINS.join(', ')}`);
    const chain = chainParam as (typeof SUPPORTED_CHAINS)[number] | undefined;
    let address: string | undefined;
    if (req.query.address !== undefined) {
      if (!chain) throw invalidParameter('chain', `one of ${SUPPORTED_CHAINS.join(', ')} (address needs its chain)`);
      const raw = req.query.address;
      address =
        (typeof raw === 'string' && raw.length <= 128 && normalizeAddress(chain, raw, deps.bitcoinNetwork)) ||
        undefined;
      if (!address) throw invalidParameter('address', addressFormatHint(chain, deps.bitcoinNetwork));
    }
    const { labels, total } = await deps.customLabels.listForUser(currentUser(res).id, {
      limit,
      offset,
      ...(chain ? { chain } : {}),
      ...(address ? { address } : {}),
    });
    res.json({ success: true, data: labels.map(customLabelView), pagination: { total, limit, offset } });
  });

  router.delete('/custom-labels/:id', requireScope('screening'), async (req, res) => {
    const id = req.params.id;
    if (!isUuid(id) || !(await deps.customLabels.delete(currentUser(res).id, id))) throw notFound('Custom label');
    res.json({ success: true, data: { id, deleted: true } });
  });

  return router;
}
