import { type Response, Router } from 'express';
import { z } from 'zod';
import type { ScreeningConfig } from './config';
import type { EvidenceSigner } from '../platform/signing/evidence-signer';
import type { RateLimitCheck } from '../platform/rate-limit/middleware';
import type { JobStore } from './jobs-store';
import { isUuid } from '../platform/http/common-patterns';
import type { EngineCapabilities } from './engine/capabilities';
import type { JobService, SubmitResult } from './job-service';
import { currentUser, requireScope } from '../identity';
import { flatError, notFound } from '../platform/http/errors';
import { creditRefusal } from './credit-refusal';
import { httpRequestIdOf } from '../platform/http/request-id';
import { polledFullJobSchema, polledJobSchema, submittedJobSchema, submittedView } from './job-views';
import { parseJobRequest, type JobRequest } from './job-request';
import { signedPollDataText } from './signed-job-view';
import { createPollSignatures } from './poll-signatures';
import { createPricingRouter } from './pricing-route';
import { PLATFORM_ERRORS } from '../platform/errors';
import { SCREENING_ERRORS } from './error-codes';

export interface ScreeningRouterDeps {
  jobService: JobService;
  jobs: JobStore;
  capabilities: EngineCapabilities;
  config: Pick<ScreeningConfig, 'CRAWL_TIMEOUT_DEFAULT_MS' | 'CRAWL_TIMEOUT_MAX_MS' | 'BITCOIN_NETWORK'>;
  /** Signs a completed job's `response` (src/platform/signing). */
  evidenceSigner: EvidenceSigner;
  /** The account's job-submit limit (JOB_SUBMIT_LIMIT_PER_MINUTE): 429 before anything is held or stored. */
  limitSubmits: RateLimitCheck;
}

export const submittedJobResponse = z.object({ success: z.literal(true), data: submittedJobSchema });
export const polledJobResponse = z.object({ success: z.literal(true), data: polledJobSchema });
export const polledFullJobResponse = z.object({ success: z.literal(true), data: polledFullJobSchema });

export function parseAndCheck(body: unknown, deps: ScreeningRouterDeps): JobRequest {
  const request = parseJobRequest(body, {
    defaultCrawlTimeoutMs: deps.config.CRAWL_TIMEOUT_DEFAULT_MS,
    maxCrawlTimeoutMs: deps.config.CRAWL_TIMEOUT_MAX_MS,
    bitcoinNetwork: deps.config.BITCOIN_NETWORK,
  });
  if (request.apiType === 'KYT' && !deps.capabilities.hasChainData(request.chain)) {
    throw flatError(
      SCREENING_ERRORS.CHAIN_NOT_CONFIGURED,
      `KYT on ${request.chain} needs a ${request.chain} node, and none is ` +
        `configured on this deployment; KYA (address) screening is available`,
    );
  }
  return request;
}

/** 402 and 503 answers shared by the job endpoint and the deprecated synchronous ones. */
export function refuseUnlessQueued(result: SubmitResult): asserts result is Extract<SubmitResult, { kind: 'queued' }> {
  if (result.kind === 'insufficient_credits') throw creditRefusal(result);
  if (result.kind === 'not_started') {
    throw flatError(
      PLATFORM_ERRORS.SERVICE_UNAVAILABLE,
      'Screening is temporarily unavailable; nothing was charged, please retry',
      {
        request_id: result.job.requestId,
      },
    );
  }
}

export function createScreeningJobsRouter(deps: ScreeningRouterDeps): Router {
  const router = Router();
  router.use(createPricingRouter());

  router.post('/kyt/job', requireScope('screening'), deps.limitSubmits, async (req, res) => {
    const request = parseAndCheck(req.body, deps);
    const result = await deps.jobService.submit(currentUser(res), request, { httpRequestId: httpRequestIdOf(res) });
    refuseUnlessQueued(result);
    res
      .status(202)
      .location(`/api/v1/kyt/job/${result.job.requestId}`)
      .json({ success: true, data: submittedView(result.job) });
  });

  const signatures = createPollSignatures(deps.evidenceSigner);
  /** One query (authentication is cached), and the stored answer written out as stored: polls are most requests. */
  const answerPoll = async (id: string, res: Response, full: boolean) => {
    const job = isUuid(id) ? await deps.jobs.findPollForUser(id, currentUser(res).id, full) : null;
    if (!job) throw notFound('Job');
    res.type('application/json').send(`{"success":true,"data":${await signedPollDataText(job, signatures)}}`);
  };

  router.get('/kyt/job/:requestId', requireScope('read'), (req, res) => answerPoll(req.params.requestId, res, false));
  router.get('/kyt/job/:requestId/fullresponse', requireScope('read'), (req, res) =>
    answerPoll(req.params.requestId, res, true),
  );

  return router;
}
