import { z } from 'zod';
import type { ApiType } from '../../workflows/defs';
import { isSupportedChain, SUPPORTED_CHAINS, type Chain } from '../domain/chains/chain';
import { ADDRESS_FORMAT_HINT, normalizeAddress, normalizeTxid, TXID_FORMAT_HINT } from '../domain/chains/target-format';
import { invalidParameter, parseOrThrow } from './errors';

export interface ScreeningRequest {
  apiType: ApiType;
  chain: Chain;
  target: string;
  crawlTimeoutMs: number;
  referenceId: string | null;
}

const optionalText = (max: number) => z.string({ error: `a string of at most ${max} characters` }).max(max, `a string of at most ${max} characters`).optional();

export function parseScreeningRequest(body: unknown, limits: { defaultCrawlTimeoutMs: number; maxCrawlTimeoutMs: number }): ScreeningRequest {
  const expectedTimeout = `an integer number of milliseconds from 1000 to ${limits.maxCrawlTimeoutMs}`;
  const schema = z.object(
    {
      address: optionalText(128),
      txid: optionalText(128),
      chain: z.string({ error: `one of ${SUPPORTED_CHAINS.join(', ')}` }).min(1, `one of ${SUPPORTED_CHAINS.join(', ')}`),
      crawlTimeout: z
        .number({ error: expectedTimeout })
        .int(expectedTimeout)
        .min(1000, expectedTimeout)
        .max(limits.maxCrawlTimeoutMs, expectedTimeout)
        .optional(),
      reference_id: optionalText(256).nullable(),
      referenceId: optionalText(256).nullable(),
    },
    { error: 'a JSON object' },
  );
  const input = parseOrThrow(schema, body);

  const chain = input.chain.trim().toLowerCase();
  if (!isSupportedChain(chain)) throw invalidParameter('chain', `one of ${SUPPORTED_CHAINS.join(', ')}`);
  const hasAddress = input.address !== undefined && input.address !== '';
  const hasTxid = input.txid !== undefined && input.txid !== '';
  if (hasAddress === hasTxid) {
    throw invalidParameter(hasAddress ? 'address,txid' : 'address|txid', 'exactly one of address (KYA) or txid (KYT)');
  }
  if (input.reference_id && input.referenceId && input.reference_id !== input.referenceId) {
    throw invalidParameter('referenceId', 'the same value as reference_id (referenceId is a deprecated alias)');
  }

  const target = hasAddress ? normalizeAddress(chain, input.address as string) : normalizeTxid(chain, input.txid as string);
  if (!target) {
    throw hasAddress ? invalidParameter('address', ADDRESS_FORMAT_HINT[chain]) : invalidParameter('txid', TXID_FORMAT_HINT[chain]);
  }
  return {
    apiType: hasAddress ? 'KYA' : 'KYT',
    chain,
    target,
    crawlTimeoutMs: input.crawlTimeout ?? limits.defaultCrawlTimeoutMs,
    referenceId: input.reference_id || input.referenceId || null,
  };
}
