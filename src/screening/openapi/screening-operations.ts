import type { ScreeningConfig } from '../config';
import { errorResponse, flatError, ref } from '../../platform/openapi/error-shapes';
import { jsonBody, ok } from '../../platform/openapi/json-content';
import { type HeaderObject, type Paths, pathParameter } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { rateLimitHeaders } from '../../platform/openapi/rate-limit-headers';
import { accountSecurity } from '../../identity';
import { syncAnalyzeResponse } from '../sync-analyze-route';
import { polledFullJobResponse, polledJobResponse, submittedJobResponse } from '../screening-jobs-routes';
import { fullResponseSchema, screeningResponseSchema } from '../job-views';
import { jobRequestSchema } from '../job-request';
import { rescoreBody, rescoreResponse } from '../rescore/rescore-views';
import { COST_RULE, creditsWord, RESCORE_PRICE } from '../pricing';
import { PRICING, pricingResponse } from '../pricing-route';
import { SCREENING_ERROR_EXAMPLES, SCREENING_EXAMPLES } from './examples';

const TAG = 'Screening';
const LOCATION_HEADER: HeaderObject = {
  description: 'Where to poll the job: /api/v1/kyt/job/{requestId}',
  required: true,
  schema: { type: 'string' },
};
const DEPRECATION_HEADERS: Record<string, HeaderObject> = {
  Deprecation: { description: 'Always `true`', required: true, schema: { type: 'string', const: 'true' } },
  Link: {
    description: 'The successor: `</api/v1/kyt/job>; rel="successor-version"`',
    required: true,
    schema: { type: 'string' },
  },
};

/** Every answer after the key's scope check carries the job-submit limit's headers, unless the limit is off. */
const SUBMIT_LIMIT_HEADERS = rateLimitHeaders(false);

const insufficientCredits = (withJob: boolean) =>
  errorResponse(
    'Not enough credits available for the most the analysis can cost; SUBSCRIPTION_PAYMENT_FAILED when the last ' +
      'PayPal payment failed; CREDITS_IN_DEBT while the account owes credits taken back by a refund or reversal',
    flatError(
      ['INSUFFICIENT_CREDITS', 'SUBSCRIPTION_PAYMENT_FAILED', 'CREDITS_IN_DEBT'],
      withJob ? ['required', 'available', 'debt', 'request_id'] : ['required', 'available', 'debt'],
    ),
    SCREENING_ERROR_EXAMPLES.insufficientCredits,
  );
const notStarted = errorResponse(
  'The job could not be started and Temporal confirms no workflow exists for it; nothing was charged, retry. ' +
    '(When Temporal cannot say whether a failed start took, the job stands: 202, and the queued-job sweeper runs ' +
    'or releases it.)',
  flatError(['SERVICE_UNAVAILABLE'], ['request_id']),
);
const policyNotFound = errorResponse(
  'policy_id names no policy of this account (never created, or deleted)',
  flatError(['POLICY_NOT_FOUND']),
);
const requestIdParameter = pathParameter('requestId', 'The request_id the submit answered (anything else is 404)', {
  type: 'string',
  format: 'uuid',
});

/** Screening jobs: submit, poll, rescore, the prices, and the deprecated synchronous analyze. */
export function screeningOperations({ components, config }: OperationContext): Paths {
  const limits = { maxCrawlTimeoutMs: (config as ScreeningConfig).CRAWL_TIMEOUT_MAX_MS };
  const request = components.request('ScreeningRequest', jobRequestSchema(limits), {
    description:
      'Exactly one of address (KYA) or txid (KYT); the analysis type follows the payload. ' +
      "The target must fit the chain's format (400 naming it otherwise).",
  });
  components.response('ScreeningResponse', screeningResponseSchema, {
    description: 'The `response` of a completed job (spec 2.4)',
  });
  components.response('FullResponse', fullResponseSchema, { description: 'The response plus how it was reached' });
  const submitted = components.response('JobSubmitted', submittedJobResponse);
  const body = jsonBody(request, SCREENING_EXAMPLES.screeningRequest);
  const chainNotConfigured = (codes: string[]) =>
    errorResponse(
      'KYT on a chain without a configured node (KYA still works)' +
        (codes.length > 1
          ? '; or the job failed: the transaction does not exist, ' + 'or the target is not valid on chain'
          : ''),
      flatError(codes, codes.length > 1 ? ['request_id'] : []),
      SCREENING_ERROR_EXAMPLES.chainNotConfigured,
    );

  const syncAnalyze = (kind: 'kyt' | 'kya') => ({
    operationId: `${kind}AnalyzeSync`,
    tags: [TAG],
    summary: `Screen and wait (deprecated: use POST /api/v1/kyt/job)`,
    description:
      'Same body as POST /api/v1/kyt/job; the analysis type follows the payload, not the path. ' +
      'Waits up to SYNC_ANALYZE_WAIT_MS for the job and answers its response, ' +
      'or 202 with the job to poll when the wait runs out.',
    deprecated: true,
    requestBody: body,
    responses: {
      200: ok(
        'The completed analysis',
        components.response('SyncAnalyzeResult', syncAnalyzeResponse),
        SCREENING_EXAMPLES.syncAnalyze,
        { ...DEPRECATION_HEADERS, ...SUBMIT_LIMIT_HEADERS },
      ),
      202: ok('Still running: poll the job', submitted, SCREENING_EXAMPLES.submitted, {
        ...DEPRECATION_HEADERS,
        Location: LOCATION_HEADER,
        ...SUBMIT_LIMIT_HEADERS,
      }),
      400: ref('InvalidBody'),
      401: ref('AuthenticationRequired'),
      402: insufficientCredits(true),
      404: policyNotFound,
      413: ref('PayloadTooLarge'),
      415: ref('UnsupportedMediaType'),
      422: chainNotConfigured(['CHAIN_NOT_CONFIGURED', 'TRANSACTION_NOT_FOUND', 'INVALID_TARGET']),
      429: ref('JobSubmitLimited'),
      502: errorResponse(
        'The analysis failed (e.g. the chain node failed); nothing was charged',
        flatError(['CHAIN_UNAVAILABLE', 'ANALYSIS_FAILED'], ['request_id']),
      ),
      503: notStarted,
    },
    security: accountSecurity('screening'),
  });

  return {
    '/api/v1/kyt/job': {
      post: {
        operationId: 'submitScreeningJob',
        tags: [TAG],
        summary: 'Submit a KYT (txid) or KYA (address) screening job',
        description:
          'Holds the most the job can cost and records it in one transaction, ' +
          'then starts workflow screening:<request_id>. Poll GET /api/v1/kyt/job/{requestId}; ' +
          `typical jobs finish in well under a second. A completed analysis costs ${COST_RULE} ` +
          '(GET /api/v1/kyt/pricing); a failed one costs nothing. Submits count against the ' +
          "account's job-submit limit (JOB_SUBMIT_LIMIT_PER_MINUTE, shared by all its keys and sessions and by the " +
          'analyze and monitor routes).',
        requestBody: body,
        responses: {
          202: ok('Queued', submitted, SCREENING_EXAMPLES.submitted, {
            Location: LOCATION_HEADER,
            ...SUBMIT_LIMIT_HEADERS,
          }),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          402: insufficientCredits(false),
          404: policyNotFound,
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          422: chainNotConfigured(['CHAIN_NOT_CONFIGURED']),
          429: ref('JobSubmitLimited'),
          503: notStarted,
        },
        security: accountSecurity('screening'),
      },
    },
    '/api/v1/kyt/job/{requestId}': {
      get: {
        operationId: 'getScreeningJob',
        tags: [TAG],
        summary: 'Poll a job',
        description:
          '`status` is `queued`, then `completed` (with `response`) or `failed` (with `error {code, message}`, ' +
          'our extension; a failed job costs nothing).',
        parameters: [requestIdParameter],
        responses: {
          200: ok('The job', components.response('JobPolled', polledJobResponse), SCREENING_EXAMPLES.polled),
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/kyt/job/{requestId}/fullresponse': {
      get: {
        operationId: 'getScreeningJobFullResponse',
        tags: [TAG],
        summary: 'Poll a job with the full response',
        description:
          'The response plus `hits` (rule, score, address, role, hop, source), `crawl`, `graph`, `transaction`, ' +
          '`pricing`, `cost`, `model`, `performance`.',
        parameters: [requestIdParameter],
        responses: {
          200: ok('The job', components.response('JobPolledFull', polledFullJobResponse), SCREENING_EXAMPLES.full),
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/kyt/job/{requestId}/rescore': {
      post: {
        operationId: 'rescoreScreeningJob',
        tags: [TAG],
        summary: 'Score a stored job again under a policy (no chain call, no crawl)',
        description:
          "Scores the evidence kept with the job's answer (`scoring_evidence` of the full response) under the " +
          `policy, with the standard score beside it. Costs ${creditsWord(RESCORE_PRICE)} (RESCORE_PRICE); ` +
          'asking again for the same job and policy version returns the stored rescore and costs nothing. ' +
          "The job's own answer is not changed.",
        parameters: [requestIdParameter],
        requestBody: jsonBody(components.request('RescoreRequest', rescoreBody), { policy_id: 'strict-gambling' }),
        responses: {
          200: ok('The rescore', components.response('Rescore', rescoreResponse)),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          402: errorResponse(
            `Not enough credits for the rescore (${creditsWord(RESCORE_PRICE)}); CREDITS_IN_DEBT while the account ` +
              'owes credits taken back by a refund or reversal (nothing is rescored or charged)',
            flatError(['INSUFFICIENT_CREDITS', 'CREDITS_IN_DEBT'], ['required', 'available', 'debt']),
          ),
          404: errorResponse(
            "Unknown job (or another account's), or policy_id names no policy of this account",
            flatError(['NOT_FOUND', 'POLICY_NOT_FOUND']),
          ),
          409: errorResponse(
            'The job is not completed, or was stored before answers kept their scoring evidence',
            flatError(['JOB_NOT_RESCORABLE']),
          ),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('screening'),
      },
    },
    '/api/v1/kyt/pricing': {
      get: {
        operationId: 'getScreeningPricing',
        tags: [TAG],
        summary: 'What screening costs in credits',
        description:
          'The figures every charge is computed with: the least a completed analysis costs, what each further ' +
          'exposure hop adds, the rule in words (as `cost.rule` of a full response), and the price of a rescore. ' +
          'A failed analysis costs nothing. Clients show these instead of a copy of them.',
        responses: {
          200: ok('The prices', components.response('ScreeningPricing', pricingResponse), {
            success: true,
            data: PRICING,
          }),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/kyt/analyze': { post: syncAnalyze('kyt') },
    '/api/v1/kya/analyze': { post: syncAnalyze('kya') },
  };
}
