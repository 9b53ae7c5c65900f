/**
 * Screening's examples for the document, copied from real answers of a running stack (`npm start`, reference lists
 * only, no chain node; Nov 2026). Shortened only where a list was long. What a price decides (the charge, the cost
 * rule, the 402) is written from src/screening/pricing.ts, so a price change shows here without a copy to edit.
 */

import { evidenceProtectedHeader } from '../../platform/signing/evidence-signature';
import { creditRefusal } from '../credit-refusal';
import { shippedRiskModel } from '../engine/risk-model';
import { COST_RULE, jobCost, MINIMUM_CHARGE } from '../pricing';

const REQUEST_ID = '333a14db-7654-4988-bfc7-048e493cd932';
const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
/** The crawl did not run (no node is configured): depth 0, charged the minimum. */
const DEPTH_REACHED = 0;
const CHARGED = jobCost(DEPTH_REACHED);

const screeningResponse = {
  chain: 'ethereum',
  api_type: 'KYA',
  risk_level: 'HIGH',
  risk_score: 100,
  response_id: '62079595-c984-4a9d-a27b-54e7d60dbc0f',
  risk_reason:
    'Address is on the OFAC SDN list: Sim, Hyon Sop (programs NPWMD), designated 2023-04-24; no ethereum node is ' +
    'configured: screened against the reference lists only, on-chain exposure not checked',
  rule_scores: {
    tag_score: 72,
    address_type: 0,
    is_sanctioned: 100,
    receive_count: 0,
    is_blacklisted: 90,
    active_duration: 0,
  },
  target_summary: {
    tags: [
      { name: 'Sim, Hyon Sop', type: 'sanctions', display: 'OFAC SDN: Sim, Hyon Sop' },
      { name: 'USDT freeze', type: 'stablecoin_blocked', display: 'USDT frozen (ethereum)' },
      { name: 'sanctions_related', type: 'sanctions_related', display: 'sanctions related (etherscan-labels)' },
    ],
    address: SANCTIONED,
    balances: [],
  },
};

/**
 * Real signatures over the two example answers' `data` (as they read here), by a key made for these examples only:
 * EXAMPLE_JWKS publishes its public half, so they verify as the docs' snippet shows (test/unit/evidence-signing.test.ts
 * checks it). Changing an example's data breaks its signature (a new price too: it is in `data`): sign both again
 * with a new example key.
 */
const EXAMPLE_KID = 'FNoDti7eYt_iEg8ubHK5_YoCkgBrMw5JvOUFbSTUwlU';
/** The protected header both carry, as the signer writes it (both examples are the answer of one request). */
const EXAMPLE_JWS_HEADER = Buffer.from(JSON.stringify(evidenceProtectedHeader(EXAMPLE_KID, REQUEST_ID))).toString(
  'base64url',
);
const exampleSignature = (signature: string) => ({
  jws: `${EXAMPLE_JWS_HEADER}..${signature}`,
  kid: EXAMPLE_KID,
  alg: 'EdDSA',
  signed: 'data',
  canonicalization: 'RFC8785',
});
/** The key set that verifies the example signatures (the example of GET /.well-known/jwks.json). */
export const EXAMPLE_JWKS = {
  keys: [
    {
      kty: 'OKP',
      crv: 'Ed25519',
      x: '6hxsJRE4rcQC6Oa88YgE_4S3xBAl3ERGqJo3Wascb_4',
      kid: EXAMPLE_KID,
      alg: 'EdDSA',
      use: 'sig',
    },
  ],
};

export const SCREENING_EXAMPLES = {
  screeningRequest: { chain: 'ethereum', address: SANCTIONED, reference_id: 'case-1' },
  submitted: {
    success: true,
    data: { request_id: REQUEST_ID, status: 'queued', reference_id: 'case-1', created_at: 1795424873055 },
  },
  polled: {
    success: true,
    data: {
      request_id: REQUEST_ID,
      status: 'completed',
      reference_id: 'case-1',
      created_at: 1795424873055,
      completed_at: 1795424873241,
      response: screeningResponse,
      credits_charged: CHARGED,
      signature: exampleSignature(
        'bd_sRea2xvUKqmjtu_mAypZEjGUysY5-DYxP9cQCFb5U70IZY6J551ec9U06_dWWY_1toL8L-5ESNjOSu9dgBQ',
      ),
    },
  },
  full: {
    success: true,
    data: {
      request_id: REQUEST_ID,
      status: 'completed',
      reference_id: 'case-1',
      created_at: 1795424873055,
      completed_at: 1795424873241,
      response: {
        ...screeningResponse,
        cost: { rule: COST_RULE, credits: CHARGED, depth_reached: DEPTH_REACHED },
        hits: [
          {
            hop: 0,
            role: 'target',
            rule: 'is_sanctioned',
            score: 100,
            detail: 'Address is on the OFAC SDN list: Sim, Hyon Sop (programs NPWMD), designated 2023-04-24',
            source: 'ofac-sdn-xml-2025-11-19',
            address: SANCTIONED,
            category: 'sanctions',
          },
          {
            hop: 0,
            role: 'target',
            rule: 'is_blacklisted',
            score: 90,
            detail: 'Address is frozen by the USDT issuer on ethereum since 2023-03-03T21:44:11Z',
            source: 'usdt-contract-events-2025-09-13',
            address: SANCTIONED,
            category: 'stablecoin_blocked',
          },
          {
            hop: 0,
            role: 'target',
            rule: 'tag_score',
            score: 72,
            detail: 'Address is labelled sanctions related by etherscan-labels (medium confidence)',
            source: 'etherscan-labels',
            address: SANCTIONED,
            category: 'sanctions_related',
          },
        ],
        crawl: {
          ran: false,
          note:
            'no ethereum node is configured: screened against the reference lists only, ' +
            'on-chain exposure not checked',
          complete: false,
          truncated: [],
          depth_planned: 0,
          depth_reached: DEPTH_REACHED,
          nodes_visited: 0,
        },
        graph: {
          edges: [],
          nodes: [
            {
              hop: 0,
              role: 'target',
              labels: ['sanctions', 'sanctions', 'sanctions', 'USDT blacklisted', 'sanctions_related'],
              address: SANCTIONED,
            },
          ],
        },
        model: shippedRiskModel().document,
        pricing: [],
        performance: {
          chain_ms: 0,
          crawl_ms: 0,
          lists_ms: 9,
          cut_short: true,
          cache_hits: 0,
          analysis_ms: 10,
          cache_misses: 0,
          nodes_visited: 0,
          crawl_requests: 0,
          request_budget: 0,
        },
        transaction: null,
        unpriced_assets: [],
      },
      credits_charged: CHARGED,
      signature: exampleSignature(
        'GcsAX-P_iplceH6-7A-pZLCZynj8RA8Tc4S1jUWlIYk_PMwAhmJCbaLzYKJtV4f8HY56VWvBtv2ziJqaMUTYAA',
      ),
    },
  },
  syncAnalyze: {
    success: true,
    data: {
      chain: 'tron',
      api_type: 'KYA',
      risk_level: 'HIGH',
      risk_score: 100,
      response_id: '0b782831-3f94-4b8c-973d-c3c0c32c95b9',
      risk_reason:
        'Address is on the OFAC SDN list: CHEIL CREDIT BANK (programs DPRK4), designated 2017-09-26; no tron node is ' +
        'configured: screened against the reference lists only, on-chain exposure not checked',
      rule_scores: {
        tag_score: 0,
        address_type: 0,
        is_sanctioned: 100,
        receive_count: 0,
        is_blacklisted: 90,
        active_duration: 0,
      },
      target_summary: {
        tags: [
          { name: 'CHEIL CREDIT BANK', type: 'sanctions', display: 'OFAC SDN: CHEIL CREDIT BANK' },
          { name: 'USDT freeze', type: 'stablecoin_blocked', display: 'USDT frozen (tron)' },
        ],
        address: 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz',
        balances: [],
      },
      request_id: '40ea9a68-20e1-4ff7-8aa9-4a37bced3ca8',
      reference_id: null,
    },
  },
} as const;

export const SCREENING_ERROR_EXAMPLES = {
  /** The 402 of a submit an account with nothing available cannot hold the minimum charge for. */
  insufficientCredits: creditRefusal({ needed: MINIMUM_CHARGE, available: 0, debt: 0 }).body,
  chainNotConfigured: {
    success: false,
    error:
      'KYT on ethereum needs a ethereum node, and none is configured on this deployment; KYA ' +
      '(address) screening is available',
    code: 'CHAIN_NOT_CONFIGURED',
  },
} as const;
