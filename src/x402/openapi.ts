import type { FeatureOpenApi } from '../platform/features/feature-openapi';
import { errorResponse, flatError, rateLimitDetails, ref, structuredError } from '../platform/openapi/error-shapes';
import { jsonBody } from '../platform/openapi/json-content';
import { type HeaderObject, jsonSchemaOf, type Paths, type ResponseObject } from '../platform/openapi/json-schema';
import type { OperationContext } from '../platform/openapi/operation-context';
import { RETRY_AFTER_HEADER, rateLimitHeaders } from '../platform/openapi/rate-limit-headers';
import { only } from '../platform/openapi/security';
import { screeningResponseSchema } from '../screening';
import { REPORT_PRICE, REPORT_PRICE_UNITS, X402_NETWORK } from './constants';
import { paymentRequiredBodySchema } from './payment-gate';
import {
  entityProfileSchema,
  kyaReportBody,
  kyeReportBody,
  kytReportBody,
  paidEntityReportResponse,
  paidScreeningReportResponse,
} from './x402-reports-routes';

const TAG = 'Pay-per-use (x402)';
const PAYMENTS_NOT_CONFIGURED_EXAMPLE = {
  success: false,
  error: 'Pay-per-use reports are not configured on this deployment (X402_PAY_TO and a facilitator)',
  code: 'PAYMENTS_NOT_CONFIGURED',
};
const PAYMENT_REQUIRED_HEADER: HeaderObject = {
  description:
    `The x402 v2 challenge, base64 JSON: \`{x402Version: 2, accepts: [{scheme: "exact", network: "${X402_NETWORK}", ` +
    `amount: "${REPORT_PRICE_UNITS}", asset, payTo, …}], resource, error?}\``,
  required: true,
  schema: { type: 'string' },
};
const PAYMENT_RESPONSE_HEADER: HeaderObject = {
  description: 'The settlement (base64 JSON: success, transaction, network, payer)',
  required: true,
  schema: { type: 'string' },
};

function paymentRequired(components: OperationContext['components']): ResponseObject {
  const challenge = components.response('PaymentRequired', paymentRequiredBodySchema, {
    description: 'The 402 challenge, also in the PAYMENT-REQUIRED header',
  });
  return {
    description:
      `Payment required. Without PAYMENT-SIGNATURE: the challenge (payTo, amount ${REPORT_PRICE_UNITS} = ` +
      `${REPORT_PRICE} USDC, asset, network ${X402_NETWORK}, resource), in the header and the body. ` +
      'A payment that does not verify: PAYMENT_REJECTED, one that does not settle: SETTLEMENT_FAILED, each with ' +
      'the x402 reason (`reason`, ' +
      'also the `error` of PAYMENT-REQUIRED). A payment authorization used before: DUPLICATE_PAYMENT. ' +
      'A browser (Accept text/html and a Mozilla user agent) without payment gets the HTML paywall.',
    headers: { 'PAYMENT-REQUIRED': { ...PAYMENT_REQUIRED_HEADER, required: false } },
    content: {
      'application/json': {
        schema: {
          anyOf: [
            challenge,
            jsonSchemaOf(
              flatError(['DUPLICATE_PAYMENT', 'PAYMENT_REJECTED', 'SETTLEMENT_FAILED'], ['reason']),
              'output',
            ),
          ],
        },
      },
      'text/html': { schema: { type: 'string' } },
    },
  };
}

/**
 * 429: a paid attempt over its client address's or payer's budget (RATE_LIMITED, X402_RATE_LIMIT_*), or a payer
 * that already has an unsettled report (PAYER_BUSY). Nothing was verified, claimed or charged either way.
 */
const tooManyAttempts: ResponseObject = {
  description:
    'Over the paid-attempt budget of the client address (X402_RATE_LIMIT_PER_IP_PER_MINUTE, counted before ' +
    'verification) or of the payer (X402_RATE_LIMIT_PER_PAYER_PER_MINUTE): RATE_LIMITED. Or the payer already has ' +
    'an unsettled report (one at a time per payer): PAYER_BUSY. Nothing was verified, claimed or charged; retry ' +
    'after Retry-After seconds',
  headers: {
    'Retry-After': RETRY_AFTER_HEADER,
    ...rateLimitHeaders(false),
  },
  content: {
    'application/json': {
      schema: {
        anyOf: [
          jsonSchemaOf(structuredError(['RATE_LIMITED'], rateLimitDetails), 'output'),
          jsonSchemaOf(flatError(['PAYER_BUSY']), 'output'),
        ],
      },
    },
  },
};

function x402Operations({ components }: OperationContext): Paths {
  const screening = components.response('ScreeningResponse', screeningResponseSchema);
  components.response('EntityProfile', entityProfileSchema, {
    description: 'The best fuzzy match of the entity directory',
  });
  const notConfigured = errorResponse(
    'Not configured (no X402_PAY_TO and facilitator), the facilitator is unreachable, ' +
      'or the report could not be produced; nothing was charged',
    flatError(['PAYMENTS_NOT_CONFIGURED', 'PAYMENT_UNAVAILABLE', 'REPORT_FAILED']),
    PAYMENTS_NOT_CONFIGURED_EXAMPLE,
  );
  const common = {
    400: ref('InvalidBody'),
    402: paymentRequired(components),
    413: ref('PayloadTooLarge'),
    415: ref('UnsupportedMediaType'),
    429: tooManyAttempts,
    503: notConfigured,
  };
  const paid = (
    name: string,
    schema: typeof paidScreeningReportResponse | typeof paidEntityReportResponse,
  ): ResponseObject => ({
    description: 'Paid and settled on chain: what was paid and the report',
    headers: { 'PAYMENT-RESPONSE': PAYMENT_RESPONSE_HEADER },
    content: { 'application/json': { schema: components.response(name, schema) } },
  });
  const screeningReport = (kind: 'kyt' | 'kya') => ({
    operationId: `${kind}X402Report`,
    tags: [TAG],
    summary: `${kind.toUpperCase()} report for ${REPORT_PRICE} in USDC on Base, no account`,
    description:
      `The request is validated first (a 400 never asks for payment), then the payment is claimed (one unsettled ` +
      `report per payer at a time: 429 PAYER_BUSY otherwise) and verified, ` +
      `the report is produced by the same engine as jobs, and only a successful report is settled. ` +
      `A failed, refused or timed-out report costs nothing.` +
      `${kind === 'kyt' ? ' KYT needs a node for the chain (422 otherwise).' : ''} \`data\` is the job's ` +
      `response (${screening.$ref.split('/').pop()}).`,
    requestBody: jsonBody(
      components.request(
        kind === 'kyt' ? 'KytReportRequest' : 'KyaReportRequest',
        kind === 'kyt' ? kytReportBody : kyaReportBody,
      ),
      kind === 'kyt'
        ? { chain: 'ethereum', txid: '0x520a66112467b4b79016c2a62658b56e8f78049bae8bf6f4ce4bf39ec2d75ba8' }
        : { chain: 'ethereum', address: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c' },
    ),
    responses: {
      200: paid('PaidScreeningReport', paidScreeningReportResponse),
      ...common,
      404: errorResponse(
        'The analysis found no such transaction (or target) on the chain; nothing was charged',
        flatError(['TRANSACTION_NOT_FOUND']),
      ),
      ...(kind === 'kyt'
        ? {
            422: errorResponse(
              'No node is configured for the chain; nothing was charged',
              flatError(['CHAIN_NOT_CONFIGURED']),
            ),
          }
        : {}),
      504: errorResponse(
        'The report took longer than X402_REPORT_TIMEOUT_MS; nothing was charged',
        flatError(['REPORT_TIMEOUT']),
      ),
    },
    security: only('x402Payment'),
  });

  return {
    '/api/v1/x402/kyt/report': { post: screeningReport('kyt') },
    '/api/v1/x402/kya/report': { post: screeningReport('kya') },
    '/api/v1/x402/kye/report': {
      post: {
        operationId: 'kyeX402Report',
        tags: [TAG],
        summary: `KYE entity report for ${REPORT_PRICE} in USDC on Base, no account`,
        description:
          'The best fuzzy match of the entity directory for `name` (≥ 2 characters): aliases, type, status, ' +
          'countries, regulators, licences, sanctions programs, known addresses per chain. ' +
          'No match is 404 and not charged.',
        requestBody: jsonBody(components.request('KyeReportRequest', kyeReportBody), { name: 'Garantex' }),
        responses: {
          200: paid('PaidEntityReport', paidEntityReportResponse),
          ...common,
          404: errorResponse('No entity matches the name; nothing was charged', flatError(['ENTITY_NOT_FOUND'])),
        },
        security: only('x402Payment'),
      },
    },
  };
}

/** The pay-per-use reports' operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const x402OpenApi: FeatureOpenApi = {
  operations: [x402Operations],
  tags: [{ name: TAG, description: 'Reports paid per request in USDC on Base, no account' }],
  securitySchemes: {
    x402Payment: {
      type: 'apiKey',
      in: 'header',
      name: 'PAYMENT-SIGNATURE',
      description:
        'x402 v2: a signed EIP-3009 USDC authorization for the challenge of the 402 answer (PAYMENT-REQUIRED header, ' +
        'base64 JSON). The paid answer carries PAYMENT-RESPONSE (the settlement). `X-PAYMENT` is read too',
    },
  },
};
