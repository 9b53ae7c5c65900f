import { x402ReportWorkflowId } from './workflow-ids';
import { Router, type Request } from 'express';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { z } from 'zod';
import type { ScreeningInput } from '../screening';
import { httpRequestMemo } from '../platform/temporal/http-request-memo';
import type { HistoryStore } from '../history';
import type { EntityStore } from '../screening';
import { SUPPORTED_CHAINS, type Chain, SCREENING_ERRORS } from '../screening';
import {
  addressFormatHint,
  type BitcoinNetwork,
  normalizeAddress,
  normalizeTxid,
  TXID_FORMAT_HINT,
} from '../screening';
import type { EngineCapabilities } from '../screening';
import type { AnalysisResult } from '../screening';
import type { ServePaid } from './payment-gate';
import { flatError, invalidParameter, parseOrThrow } from '../platform/http/errors';
import { httpRequestIdOf } from '../platform/http/request-id';
import { errorFields, type Logger } from '../platform/logging/logger';
import { screeningResponseSchema } from '../screening';
import { X402_ERRORS } from './error-codes';

export interface X402RouterDeps {
  servePaid?: ServePaid;
  temporal: Client;
  taskQueue: string;
  capabilities: EngineCapabilities;
  entities: EntityStore;
  history: HistoryStore;
  crawlTimeoutMs: number;
  heartbeatTimeoutMs: number;
  reportTimeoutMs: number;
  /** BITCOIN_NETWORK: the bitcoin addresses a report may name. */
  bitcoinNetwork: BitcoinNetwork;
  log: Logger;
}

/** How long a report's workflow may outlive the API's wait for it (the API cancels it when the wait times out). */
const ABANDONED_REPORT_GRACE_MS = 30_000;

const chainField = z.enum(SUPPORTED_CHAINS, { error: `one of ${SUPPORTED_CHAINS.join(', ')}` });
const assetField = z
  .string({ error: 'an ERC-20 contract address (ethereum only)' })
  .optional()
  .meta({ description: 'An ERC-20 contract address, only with chain ethereum' });
/** Request bodies, as validated (spec 2.2) and as the OpenAPI document describes them. */
export const kytReportBody = z.object(
  { txid: z.string({ error: 'a transaction id' }), chain: chainField, asset: assetField },
  { error: 'a JSON object' },
);
export const kyaReportBody = z.object(
  { address: z.string({ error: 'an address' }), chain: chainField, asset: assetField },
  { error: 'a JSON object' },
);
export const kyeReportBody = z.object(
  {
    name: z
      .string({ error: 'an entity name of at least 2 characters' })
      .trim()
      .min(2, 'an entity name of at least 2 characters')
      .max(200, 'at most 200 characters'),
  },
  { error: 'a JSON object' },
);

const countsByChain = z.record(z.string(), z.int().min(0));

/** The KYE report: the best fuzzy match of the entity directory. */
export const entityProfileSchema = z.object({
  entity_id: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  type: z.string().nullable(),
  status: z.array(z.string()),
  risk: z.string().nullable(),
  countries: z.array(z.string()),
  websites: z.array(z.string()),
  regulators: z.array(z.string()),
  licences: z.array(z.string()),
  services: z.array(z.string()),
  sanctions: z.object({
    programs: z.array(z.string()),
    sdn_uids: z.array(z.string()),
    designated: z.string().nullable(),
    addresses_by_chain: countsByChain,
  }),
  known_addresses_by_chain: countsByChain,
  sources: z.array(z.string()),
  notes: z.string().nullable(),
  match: z.object({ query: z.string(), matched: z.string(), score: z.number().min(0).max(1) }),
});

/** A paid report: what was paid (its payment settled on chain) and the report. */
function paidReport<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    x402: z.object({
      payer: z.string(),
      amount: z.string(),
      asset: z.string(),
      network: z.string(),
      transaction: z.string().nullable(),
    }),
    data,
  });
}
export const paidScreeningReportResponse = paidReport(screeningResponseSchema);
export const paidEntityReportResponse = paidReport(entityProfileSchema);

/** Spec 2.2, checked before any payment is asked for: an invalid request is never charged. */
function target(
  req: Request,
  kind: 'kyt' | 'kya',
  bitcoinNetwork: BitcoinNetwork,
): { chain: Chain; target: string; asset: string | null } {
  const body: { txid?: string; address?: string; chain: Chain; asset?: string } =
    kind === 'kyt' ? parseOrThrow(kytReportBody, req.body) : parseOrThrow(kyaReportBody, req.body);
  if (body.asset !== undefined && (body.chain !== 'ethereum' || !/^0x[0-9a-fA-F]{40}$/.test(body.asset)))
    throw invalidParameter('asset', 'an ERC-20 contract address, and only for chain ethereum');
  if (kind === 'kyt') {
    const raw = String(body.txid).trim();
    const txid = body.chain !== 'ethereum' && /^0x/i.test(raw) ? null : normalizeTxid(body.chain, raw);
    if (!txid) throw invalidParameter('txid', TXID_FORMAT_HINT[body.chain]);
    return { chain: body.chain, target: txid, asset: body.asset?.toLowerCase() ?? null };
  }
  const address = normalizeAddress(body.chain, String(body.address), bitcoinNetwork);
  if (!address) throw invalidParameter('address', addressFormatHint(body.chain, bitcoinNetwork));
  return { chain: body.chain, target: address, asset: body.asset?.toLowerCase() ?? null };
}

/**
 * POST /api/v1/x402/{kyt,kya,kye}/report: $1.00 in USDC on Base per report, its payment settled only when the report
 * succeeded.
 */
export function createX402ReportsRouter(deps: X402RouterDeps): Router {
  const router = Router();
  const gate = (): ServePaid => {
    if (!deps.servePaid)
      throw flatError(
        X402_ERRORS.PAYMENTS_NOT_CONFIGURED,
        'Pay-per-use reports are not configured on this deployment (X402_PAY_TO and a facilitator)',
      );
    return deps.servePaid;
  };

  /** The report `requestId` (its payment's claim names it, so the worker runs this report and no made-up one). */
  async function analyze(
    kind: 'kyt' | 'kya',
    requestId: string,
    chain: Chain,
    subject: string,
    httpRequestId: string | undefined,
  ): Promise<{ status: 200; data: AnalysisResult['response'] } | { status: number; body: Record<string, unknown> }> {
    const apiType = kind === 'kyt' ? 'KYT' : 'KYA';
    if (apiType === 'KYT' && !deps.capabilities.hasChainData(chain)) {
      return {
        status: 422,
        body: {
          success: false,
          error: `KYT on ${chain} needs a ${chain} node, and none is configured; nothing was charged`,
          code: SCREENING_ERRORS.CHAIN_NOT_CONFIGURED.code,
        },
      };
    }
    const input: ScreeningInput = {
      requestId,
      userId: 'x402',
      apiType,
      chain,
      target: subject,
      crawlTimeoutMs: deps.crawlTimeoutMs,
      maxDepth: deps.capabilities.plannedDepth(chain, apiType),
      creditsHeld: 0,
      heartbeatTimeoutMs: deps.heartbeatTimeoutMs,
      referenceId: null,
    };
    const handle = await deps.temporal.workflow.start('x402ReportWorkflow', {
      workflowId: x402ReportWorkflowId(kind, requestId),
      taskQueue: deps.taskQueue,
      args: [input],
      memo: httpRequestMemo(httpRequestId),
      // Nobody waits for a report past its timeout: if this process dies before cancelling it, Temporal ends it.
      workflowExecutionTimeout: deps.reportTimeoutMs + ABANDONED_REPORT_GRACE_MS,
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), deps.reportTimeoutMs)));
    try {
      const result = (await Promise.race([handle.result(), timeout])) as AnalysisResult | null;
      if (!result) {
        // Payment not settled, so unpaid: the analysis (and its chain requests) stops rather than run on for no one.
        await handle.cancel().catch((err: unknown) =>
          deps.log.warn('timed-out x402 report not cancelled; its execution timeout will end it', {
            workflowId: handle.workflowId,
            ...errorFields(err),
          }),
        );
        return {
          status: 504,
          body: {
            success: false,
            error: 'The report took too long; nothing was charged, please retry',
            code: X402_ERRORS.REPORT_TIMEOUT.code,
          },
        };
      }
      return { status: 200, data: result.response };
    } catch (err) {
      const message =
        err instanceof WorkflowFailedError
          ? String((err.cause as { cause?: { message?: string } })?.cause?.message ?? err.message)
          : 'analysis failed';
      const notFound = /not found/i.test(message);
      return {
        status: notFound ? 404 : 503,
        body: {
          success: false,
          error: `${message}; nothing was charged`,
          code: notFound ? SCREENING_ERRORS.TRANSACTION_NOT_FOUND.code : X402_ERRORS.REPORT_FAILED.code,
        },
      };
    } finally {
      clearTimeout(timer);
    }
  }

  for (const kind of ['kyt', 'kya'] as const) {
    router.post(`/api/v1/x402/${kind}/report`, async (req, res) => {
      const t = target(req, kind, deps.bitcoinNetwork);
      await gate()(
        req,
        res,
        kind,
        (paid) => analyze(kind, paid.requestId, t.chain, t.target, httpRequestIdOf(res)),
        async (paid, data) => {
          const r = data as AnalysisResult['response'];
          await deps.history.record({
            userRef: paid.payer,
            idempotencyKey: `x402:${paid.network}:${paid.payer}:${r.response_id}`,
            activityType: kind,
            requestId: paid.requestId,
            responseId: r.response_id,
            statusCode: 200,
            blockchain: t.chain,
            transactionHash: kind === 'kyt' ? t.target : null,
            address: kind === 'kya' ? t.target : r.target_summary.address,
            entityId: null,
            entityName: null,
            riskLevel: r.risk_level.toLowerCase() as 'low',
            riskScore: r.risk_score,
            requestPayload: req.body,
            responsePayload: r,
            responseSummary: { risk_level: r.risk_level, risk_score: r.risk_score },
            errorMessage: null,
            metadata: { payment: paid },
            clientAppId: null,
            clientAppName: null,
            source: 'x402',
          });
        },
      );
    });
  }

  router.post('/api/v1/x402/kye/report', async (req, res) => {
    const { name } = parseOrThrow(kyeReportBody, req.body);
    await gate()(
      req,
      res,
      'kye',
      async () => {
        const profile = await deps.entities.findBestMatch(name);
        return profile
          ? { status: 200, data: profile }
          : {
              status: 404,
              body: {
                success: false,
                error: `No entity matches "${name}"; nothing was charged`,
                code: X402_ERRORS.ENTITY_NOT_FOUND.code,
              },
            };
      },
      async (paid, data) => {
        const p = data as { entity_id: string; name: string; risk: string | null };
        await deps.history.record({
          userRef: paid.payer,
          idempotencyKey: `x402:${paid.network}:${paid.payer}:kye:${paid.requestId}`,
          activityType: 'kye',
          requestId: paid.requestId,
          responseId: null,
          statusCode: 200,
          blockchain: null,
          transactionHash: null,
          address: paid.payer,
          entityId: p.entity_id,
          entityName: p.name,
          riskLevel: null,
          riskScore: null,
          requestPayload: req.body,
          responsePayload: data,
          responseSummary: { entity: p.name, risk: p.risk },
          errorMessage: null,
          metadata: { payment: paid },
          clientAppId: null,
          clientAppName: null,
          source: 'x402',
        });
      },
    );
  });
  return router;
}
