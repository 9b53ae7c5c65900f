import { z } from 'zod';
import type { ApiType } from './workflow-types';
import { isSupportedChain, SUPPORTED_CHAINS, type Chain } from './chains/chain';
import { addressFormatHint, normalizeAddress, normalizeTxid, TXID_FORMAT_HINT } from './chains/target-format';
import type { BitcoinNetwork } from './chains/bitcoin-address';
import { invalidParameter, parseOrThrow } from '../platform/http/errors';
import { oneOfAnyCase } from '../platform/http/input-patterns';
import { POLICY_ID_PATTERN } from './engine/scoring-policy';

export interface JobRequest {
  apiType: ApiType;
  chain: Chain;
  target: string;
  crawlTimeoutMs: number;
  referenceId: string | null;
  /** The policy the caller named (resolved by the job service): undefined means the account's default. */
  policyId?: string;
}

export interface JobLimits {
  defaultCrawlTimeoutMs: number;
  maxCrawlTimeoutMs: number;
  /** BITCOIN_NETWORK: the bitcoin addresses accepted are that network's (mainnet when absent). */
  bitcoinNetwork?: BitcoinNetwork;
}

const optionalText = (max: number) =>
  z
    .string({ error: `a string of at most ${max} characters` })
    .max(max, `a string of at most ${max} characters`)
    .optional();
const CHAIN_EXPECTED = `one of ${SUPPORTED_CHAINS.join(', ')}`;
const POLICY_ID_EXPECTED =
  "a policy id (1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit) or 'standard'";

/**
 * A policy named by a job, batch, monitor or rescore: the account's policy id, or 'standard' for the shipped model.
 * Whether the account has it is the resolver's question (404 POLICY_NOT_FOUND).
 */
export const policyReferenceField = z
  .string({ error: POLICY_ID_EXPECTED })
  .regex(POLICY_ID_PATTERN, POLICY_ID_EXPECTED);

export const policyIdField = policyReferenceField.optional().meta({
  description:
    "The risk policy that scores the answer (PUT /api/v1/policies/{id}); 'standard' = the shipped model; " +
    "absent = the account's default policy, or the shipped model when it has none",
  examples: ['strict-gambling'],
});

/**
 * The body of POST /kyt/job and the deprecated /kyt|kya/analyze, as validated (and as the OpenAPI
 * document describes it). What zod cannot say is checked after it: exactly one of address/txid, the
 * target's format for the chain, and that the two reference id spellings agree.
 */
export function jobRequestSchema(limits: Pick<JobLimits, 'maxCrawlTimeoutMs'>) {
  const cached = schemas.get(limits.maxCrawlTimeoutMs);
  if (cached) return cached;
  const schema = buildSchema(limits.maxCrawlTimeoutMs);
  schemas.set(limits.maxCrawlTimeoutMs, schema);
  return schema;
}

const schemas = new Map<number, ReturnType<typeof buildSchema>>();

function buildSchema(maxCrawlTimeoutMs: number) {
  const expectedTimeout = `an integer number of milliseconds from 1000 to ${maxCrawlTimeoutMs}`;
  return z.object(
    {
      address: optionalText(128).meta({
        description: 'The address to screen (KYA). Exactly one of address or txid.',
        examples: ['0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'],
      }),
      txid: optionalText(128).meta({
        description: 'The transaction to screen (KYT). Exactly one of address or txid.',
        examples: ['0x520a66112467b4b79016c2a62658b56e8f78049bae8bf6f4ce4bf39ec2d75ba8'],
      }),
      chain: z
        .string({ error: CHAIN_EXPECTED })
        .min(1, CHAIN_EXPECTED)
        .regex(oneOfAnyCase(SUPPORTED_CHAINS), CHAIN_EXPECTED)
        .meta({
          description: `${CHAIN_EXPECTED}; letter case and surrounding spaces are ignored`,
          examples: ['ethereum'],
        }),
      crawlTimeout: z
        .number({ error: expectedTimeout })
        .int(expectedTimeout)
        .min(1000, expectedTimeout)
        .max(maxCrawlTimeoutMs, expectedTimeout)
        .optional()
        .meta({ description: 'Time budget of the exposure crawl in ms (the crawl uses 85 % of it)' }),
      reference_id: optionalText(256).nullable().meta({ description: "The caller's own reference, echoed back" }),
      referenceId: optionalText(256).nullable().meta({
        description: 'Deprecated alias of reference_id (must agree with it when both are sent)',
        deprecated: true,
      }),
      policy_id: policyIdField,
    },
    { error: 'a JSON object' },
  );
}

export function parseJobRequest(body: unknown, limits: JobLimits): JobRequest {
  const input = parseOrThrow(jobRequestSchema(limits), body);

  const chain = input.chain.trim().toLowerCase();
  if (!isSupportedChain(chain)) throw invalidParameter('chain', CHAIN_EXPECTED);
  const hasAddress = input.address !== undefined && input.address !== '';
  const hasTxid = input.txid !== undefined && input.txid !== '';
  if (hasAddress === hasTxid) {
    throw invalidParameter(hasAddress ? 'address,txid' : 'address|txid', 'exactly one of address (KYA) or txid (KYT)');
  }
  if (input.reference_id && input.referenceId && input.reference_id !== input.referenceId) {
    throw invalidParameter('referenceId', 'the same value as reference_id (referenceId is a deprecated alias)');
  }

  const target = hasAddress
    ? normalizeAddress(chain, input.address as string, limits.bitcoinNetwork)
    : normalizeTxid(chain, input.txid as string);
  if (!target) {
    throw hasAddress
      ? invalidParameter('address', addressFormatHint(chain, limits.bitcoinNetwork))
      : invalidParameter('txid', TXID_FORMAT_HINT[chain]);
  }
  return {
    apiType: hasAddress ? 'KYA' : 'KYT',
    chain,
    target,
    crawlTimeoutMs: input.crawlTimeout ?? limits.defaultCrawlTimeoutMs,
    referenceId: input.reference_id || input.referenceId || null,
    ...(input.policy_id === undefined ? {} : { policyId: input.policy_id }),
  };
}
