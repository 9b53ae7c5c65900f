import { randomUUID } from 'node:crypto';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startAnvil, type AnvilNode } from '../helpers/anvil';
import { installBaseUsdc, mintUsdc, usdcBalance } from '../helpers/base-usdc';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { clerkDelivery, post, signPayPal, testPayPalVerifier, WEBHOOK_ENV } from '../helpers/webhooks';

/**
 * Hand-picked hostile inputs, one row each: the request, then the status and error code it must get.
 * None may be a 5xx or carry a stack trace. The generated counterpart is `npm run test:schemathesis`.
 */

const HISTORY_WEBHOOK_SECRET = 'hostile-input-activity-secret';
// anvil's account #1 settles x402 payments (pays the gas); a fresh payer is funded per run.
const FACILITATOR_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const ETH_ADDRESS = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
const BTC_ADDRESS = '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h';
const ETH_TXID = `0x${'ab'.repeat(32)}`;

/** Who sends the row: a plain user, the admin, nobody, or the activity producer (its shared secret). */
type Caller = 'user' | 'admin' | 'anonymous' | 'history-webhook';

interface Row {
  name: string;
  method?: string;
  path: string;
  as?: Caller;
  /** Serialized with JSON.stringify and sent as application/json. */
  json?: unknown;
  /** Sent as these exact bytes, with `contentType` when given (none otherwise). */
  raw?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
  status: number;
  /** `code` of the flat shape or `error.code` of the structured one. */
  code?: string;
  /** The structured shape's `details.parameter`, or the history webhook's `field`. */
  parameter?: string | RegExp;
  /** The history webhook's `{error}` message. */
  error?: string | RegExp;
}

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
/** `[[[…]]]`, `depth` levels. */
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** `{"a":{"a":…1}}`, `depth` levels. */
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** A syntactically valid JSON object of about `size` bytes. */
const jsonOfSize = (size: number, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ ...fields, padding: 'x'.repeat(size) });
const kyaRecord = { activityType: 'kya', userId: 'user_hostile', blockchain: 'ethereum', address: ETH_ADDRESS };

const job = (body: Record<string, unknown>) => ({ chain: 'ethereum', address: ETH_ADDRESS, ...body });

const ROWS: Row[] = [
  // Oversized bodies: each parser's limit answers 413 before anything is read.
  {
    name: 'job body over the 256 kB JSON limit',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: jsonOfSize(300_000, job({})),
    contentType: 'application/json',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'market query body over 256 kB',
    method: 'POST',
    path: '/api/v1/query',
    raw: jsonOfSize(300_000),
    contentType: 'application/json',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'credits grant body over 256 kB',
    method: 'POST',
    path: '/api/v1/credits/grant',
    as: 'admin',
    raw: jsonOfSize(300_000),
    contentType: 'application/json',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'history webhook body over its 1 MB limit',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    raw: jsonOfSize(1_100_000, kyaRecord),
    contentType: 'application/json',
    status: 413,
    error: 'Request body too large (limit 1 MB)',
  },
  {
    name: 'PayPal webhook body over 1 MB',
    method: 'POST',
    path: '/api/v1/billing/paypal/webhook',
    as: 'anonymous',
    raw: jsonOfSize(1_100_000),
    contentType: 'application/json',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },
  {
    name: 'PayFast ITN over 64 kB',
    method: 'POST',
    path: '/api/v1/billing/payfast/webhook',
    as: 'anonymous',
    raw: `m_payment_id=${'x'.repeat(70_000)}`,
    contentType: 'application/x-www-form-urlencoded',
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
  },

  // Deep nesting: parsed (V8's JSON parser is iterative) but refused past 64 levels, before Postgres' jsonb parser or
  // recursive code sees it.
  {
    name: 'job body of 10,000 nested arrays',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: nestedArrays(10_000),
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: /^0\.0\.0\./,
  },
  {
    name: 'job field nested 10,000 objects deep',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: `{"chain":"ethereum","address":"${ETH_ADDRESS}","reference_id":${nestedObjects(10_000)}}`,
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: /^reference_id\.a\.a/,
  },
  {
    name: 'market query filters nested 10,000 deep',
    method: 'POST',
    path: '/api/v1/query',
    raw: `{"connector":"kraken","dataType":"candles","filters":${nestedObjects(10_000)}}`,
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: /^filters\.a\.a/,
  },
  {
    name: 'history webhook metadata nested 10,000 deep (Postgres jsonb would run out of stack)',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    raw: JSON.stringify(kyaRecord).replace(/}$/, `,"metadata":${nestedObjects(10_000)}}`),
    contentType: 'application/json',
    status: 400,
    parameter: /^metadata\.a\.a/,
    error: /must be JSON nested at most 64 levels deep$/,
  },

  // Invalid UTF-8: refused instead of being decoded to U+FFFD.
  {
    name: 'job body with bytes that are not UTF-8',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: bytes('{"chain":"ethereum","address":"0x', [0xff, 0xfe], '"}'),
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'body',
  },
  {
    name: 'job body with an overlong UTF-8 encoding of "/"',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: bytes('{"chain":"ethereum","reference_id":"', [0xc0, 0xaf], '"}'),
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'body',
  },
  {
    name: 'history webhook body that is not UTF-8',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    raw: bytes('{"activityType":"kye","userId":"u1","entityId":"', [0xed, 0xa0, 0x80], '"}'),
    contentType: 'application/json',
    status: 400,
    error: 'The body must be JSON encoded as UTF-8',
  },
  {
    name: 'history search query string that is not UTF-8',
    path: '/api/v1/activity?q=%FF%FE',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'query',
  },
  {
    name: 'candles symbol with an encoded UTF-16 surrogate (CESU-8)',
    path: '/api/v1/market-data/candles?symbol=%ED%A0%80&interval=1h',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'query',
  },
  {
    name: 'job reference_id with an unpaired surrogate escape',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: `{"chain":"ethereum","address":"${ETH_ADDRESS}","reference_id":"case-\\ud800"}`,
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'reference_id',
  },

  // U+0000: Postgres text and jsonb refuse it, so it is the caller's 400, not a failed insert.
  {
    name: 'job reference_id with U+0000',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: job({ reference_id: 'case\u00001' }),
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'reference_id',
  },
  {
    name: 'credits grant reason with U+0000',
    method: 'POST',
    path: '/api/v1/credits/grant',
    as: 'admin',
    json: { userId: 'user_x', amount: 1, reason: 'promo\u0000' },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'reason',
  },
  {
    name: 'history webhook entityName with U+0000',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    json: { ...kyaRecord, entityName: 'Acme\u0000' },
    status: 400,
    parameter: 'entityName',
    error: /^entityName must be text without U\+0000/,
  },
  {
    name: 'history webhook metadata key with U+0000',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    json: { ...kyaRecord, metadata: { 'k\u0000': 1 } },
    status: 400,
    parameter: 'metadata.k\\u0000',
    error: /must be text without U\+0000/,
  },
  {
    name: 'history search q with %00',
    path: '/api/v1/activity?q=ab%00cd',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'q',
  },

  // Prototype pollution: names that lead to a prototype are refused in bodies and query strings.
  {
    name: 'job body with a __proto__ key',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: `{"chain":"ethereum","address":"${ETH_ADDRESS}","__proto__":{"polluted":"job"}}`,
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: '__proto__',
  },
  {
    name: 'job body with constructor.prototype',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: `{"chain":"ethereum","address":"${ETH_ADDRESS}","constructor":{"prototype":{"polluted":"job"}}}`,
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'constructor',
  },
  {
    name: 'credits grant with a __proto__ role (non-admin caller)',
    method: 'POST',
    path: '/api/v1/credits/grant',
    raw: '{"userId":"user_x","amount":5,"__proto__":{"role":"admin","polluted":"grant"}}',
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: '__proto__',
  },
  {
    name: 'market query filters with a nested __proto__',
    method: 'POST',
    path: '/api/v1/query',
    raw:
      '{"connector":"kraken","dataType":"candles",' +
      '"filters":{"symbol":"BTC-USD","interval":"1h","__proto__":{"polluted":"query"}}}',
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'filters.__proto__',
  },
  {
    name: 'history webhook metadata with __proto__',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    raw: JSON.stringify(kyaRecord).replace(/}$/, ',"metadata":{"__proto__":{"polluted":"activity"}}}'),
    contentType: 'application/json',
    status: 400,
    parameter: 'metadata.__proto__',
    error: /must be a name that does not lead to a prototype/,
  },
  {
    name: 'candles query __proto__[polluted]',
    path: '/api/v1/market-data/candles?symbol=BTC-USD&interval=1h&__proto__[polluted]=candles',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: '__proto__[polluted]',
  },
  {
    name: 'history query constructor[prototype][polluted]',
    path: '/api/v1/activity?constructor[prototype][polluted]=activity',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'constructor[prototype][polluted]',
  },
  {
    name: 'history query __proto__.polluted',
    path: '/api/v1/activity?__proto__.polluted=activity',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: '__proto__.polluted',
  },

  // SQL metacharacters: refused by the formats, or bound as plain values (never spliced into SQL).
  {
    name: 'KYA address with a quote and OR 1=1',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: { chain: 'ethereum', address: "0x' OR '1'='1" },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'address',
  },
  {
    name: 'KYT txid with DROP TABLE',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: { chain: 'bitcoin', txid: "'; DROP TABLE screening_jobs; --" },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'txid',
  },
  {
    name: 'poll a request_id with SQL',
    path: `/api/v1/kyt/job/${encodeURIComponent("1' OR '1'='1")}`,
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'history entry id with SQL',
    path: `/api/v1/activity/${encodeURIComponent('1 OR 1=1')}`,
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'history blockchain filter with SQL',
    path: `/api/v1/activity?blockchain=${encodeURIComponent("ethereum' OR '1'='1".padEnd(70, ' x'))}`,
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'blockchain',
  },
  {
    name: 'candles symbol with SQL',
    path: `/api/v1/market-data/candles?symbol=${encodeURIComponent("BTC-USD' OR 1=1--")}&interval=1h`,
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'symbol',
  },
  {
    name: 'market query symbol with SQL',
    method: 'POST',
    path: '/api/v1/query',
    json: {
      connector: 'kraken',
      dataType: 'candles',
      filters: { symbol: 'BTC-USD; DROP TABLE market_candles', interval: '1h' },
    },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'filters.symbol',
  },
  {
    name: 'credits grant to a userId with SQL',
    method: 'POST',
    path: '/api/v1/credits/grant',
    as: 'admin',
    json: { userId: "x' OR role='admin", amount: 1 },
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'revoke an API key id with SQL',
    method: 'DELETE',
    path: `/api/v1/api-keys/${encodeURIComponent("' OR 1=1 --")}`,
    status: 404,
    code: 'NOT_FOUND',
  },

  // Huge, negative and not-a-number numbers.
  {
    name: 'candles limit=1e400',
    path: '/api/v1/market-data/candles?symbol=BTC-USD&interval=1h&limit=1e400',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'limit',
  },
  {
    name: 'candles limit=2^64',
    path: '/api/v1/market-data/candles?symbol=BTC-USD&interval=1h&limit=18446744073709551616',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'limit',
  },
  {
    name: 'candles limit=-1',
    path: '/api/v1/market-data/candles?symbol=BTC-USD&interval=1h&limit=-1',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'limit',
  },
  {
    name: 'candles limit=NaN',
    path: '/api/v1/market-data/candles?symbol=BTC-USD&interval=1h&limit=NaN',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'limit',
  },
  {
    name: 'candles startTime=2^64 ms',
    path: '/api/v1/market-data/candles?symbol=BTC-USD&interval=1h&startTime=18446744073709551616',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'startTime',
  },
  {
    name: 'market query limit 1e400 (JSON Infinity)',
    method: 'POST',
    path: '/api/v1/query',
    raw: '{"connector":"kraken","dataType":"candles","filters":{"symbol":"BTC-USD","interval":"1h"},"limit":1e400}',
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'limit',
  },
  {
    name: 'credits grant amount 1e400',
    method: 'POST',
    path: '/api/v1/credits/grant',
    as: 'admin',
    raw: '{"userId":"user_x","amount":1e400}',
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'amount',
  },
  {
    name: 'credits grant amount 2^64',
    method: 'POST',
    path: '/api/v1/credits/grant',
    as: 'admin',
    raw: '{"userId":"user_x","amount":18446744073709551616}',
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'amount',
  },
  {
    name: 'credits grant amount -5',
    method: 'POST',
    path: '/api/v1/credits/grant',
    as: 'admin',
    json: { userId: 'user_x', amount: -5 },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'amount',
  },
  {
    name: 'credits grant amount "NaN"',
    method: 'POST',
    path: '/api/v1/credits/grant',
    as: 'admin',
    json: { userId: 'user_x', amount: 'NaN' },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'amount',
  },
  {
    name: 'job crawlTimeout 1e400',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: `{"chain":"ethereum","address":"${ETH_ADDRESS}","crawlTimeout":1e400}`,
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'crawlTimeout',
  },
  {
    name: 'job crawlTimeout -1',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: job({ crawlTimeout: -1 }),
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'crawlTimeout',
  },
  {
    name: 'history limit=1e400',
    path: '/api/v1/activity?limit=1e400',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'limit',
  },
  {
    name: 'history offset=2^64',
    path: '/api/v1/activity?offset=18446744073709551616',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'offset',
  },
  {
    name: 'history limit=0x10 (hex)',
    path: '/api/v1/activity?limit=0x10',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'limit',
  },
  {
    name: 'history limit=1e1 (exponent)',
    path: '/api/v1/activity?limit=1e1',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'limit',
  },
  {
    name: 'history offset=" 5" (padded)',
    path: '/api/v1/activity?offset=%205',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'offset',
  },
  {
    name: 'history webhook riskScore 1e400',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    raw: JSON.stringify(kyaRecord).replace(/}$/, ',"riskScore":1e400}'),
    contentType: 'application/json',
    status: 400,
    parameter: 'riskScore',
    error: 'riskScore must be a number from 0 to 100',
  },
  {
    name: 'history webhook statusCode 2^64',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    raw: JSON.stringify(kyaRecord).replace(/}$/, ',"statusCode":18446744073709551616}'),
    contentType: 'application/json',
    status: 400,
    parameter: 'statusCode',
    error: 'statusCode must be an integer HTTP status (100-599)',
  },
  {
    name: 'PayFast refund amount 1e400',
    method: 'POST',
    path: '/api/v1/billing/payfast/refunds',
    as: 'admin',
    raw: '{"pfPaymentId":"1089250","refundId":"rf-1","amount":"1e400"}',
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'amount',
  },

  // Unicode lookalikes in addresses and transaction ids.
  {
    name: 'ethereum address with a Cyrillic "с"',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: { chain: 'ethereum', address: ETH_ADDRESS.replace('c', '\u0441') },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'address',
  },
  {
    name: 'ethereum address in fullwidth digits',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: { chain: 'ethereum', address: ETH_ADDRESS.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d))) },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'address',
  },
  {
    name: 'ethereum address with a zero-width joiner',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: { chain: 'ethereum', address: `${ETH_ADDRESS.slice(0, 10)}\u200d${ETH_ADDRESS.slice(10)}` },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'address',
  },
  {
    name: 'bitcoin address behind a right-to-left override',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: { chain: 'bitcoin', address: `\u202e${BTC_ADDRESS}` },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'address',
  },
  {
    name: 'ethereum txid with a Cyrillic "е"',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: { chain: 'ethereum', txid: ETH_TXID.replace('b', '\u0435') },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'txid',
  },
  {
    name: 'bitcoin txid in fullwidth digits',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: { chain: 'bitcoin', txid: '０'.repeat(64) },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'txid',
  },
  {
    name: 'x402 KYA address with a Cyrillic "с" (refused before any payment)',
    method: 'POST',
    path: '/api/v1/x402/kya/report',
    as: 'anonymous',
    json: { chain: 'ethereum', address: ETH_ADDRESS.replace('c', '\u0441') },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'address',
  },
  {
    name: 'candles symbol in Cyrillic lookalikes (ВТС-USD)',
    path: `/api/v1/market-data/candles?symbol=${encodeURIComponent('\u0412\u0422\u0421-USD')}&interval=1h`,
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'symbol',
  },

  // Wrong content types and encodings.
  {
    name: 'job JSON sent as text/plain (not parsed)',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: JSON.stringify(job({})),
    contentType: 'text/plain',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'chain',
  },
  {
    name: 'job sent as a form',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: `chain=ethereum&address=${ETH_ADDRESS}`,
    contentType: 'application/x-www-form-urlencoded',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'chain',
  },
  {
    name: 'job JSON in an unsupported charset',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: JSON.stringify(job({})),
    contentType: 'application/json; charset=latin-9',
    status: 415,
    code: 'BAD_REQUEST',
  },
  {
    name: 'job with Content-Encoding gzip that is not gzip',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: JSON.stringify(job({})),
    contentType: 'application/json',
    headers: { 'content-encoding': 'gzip' },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'history webhook with an XML body',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    raw: '<activity type="kya"/>',
    contentType: 'application/xml',
    status: 400,
    error: 'The body must be a JSON object',
  },
  {
    name: 'PayFast ITN sent as JSON',
    method: 'POST',
    path: '/api/v1/billing/payfast/webhook',
    as: 'anonymous',
    raw: '{"m_payment_id":"x","signature":"00"}',
    contentType: 'application/json',
    status: 401,
    code: 'INVALID_SIGNATURE',
  },

  // Empty bodies.
  {
    name: 'job with no body',
    method: 'POST',
    path: '/api/v1/kyt/job',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'chain',
  },
  {
    name: 'job with an empty JSON body',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: '',
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'chain',
  },
  {
    name: 'credits grant with {}',
    method: 'POST',
    path: '/api/v1/credits/grant',
    as: 'admin',
    json: {},
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'userId',
  },
  {
    name: 'market query with no body',
    method: 'POST',
    path: '/api/v1/query',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'body',
  },
  // An empty JSON body reads as {}: the contract's first message is about activityType.
  {
    name: 'history webhook with an empty body',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    raw: '',
    contentType: 'application/json',
    status: 400,
    parameter: 'activityType',
    error: 'Invalid activityType. Must be one of: kyt, kya, kye',
  },
  {
    name: 'PayPal webhook with an empty body and no signature',
    method: 'POST',
    path: '/api/v1/billing/paypal/webhook',
    as: 'anonymous',
    raw: '',
    contentType: 'application/json',
    status: 401,
    code: 'INVALID_SIGNATURE',
  },
  {
    name: 'Clerk webhook with an empty body and no signature',
    method: 'POST',
    path: '/api/webhook/clerk',
    as: 'anonymous',
    raw: '',
    contentType: 'application/json',
    status: 401,
    code: 'INVALID_SIGNATURE',
  },
  {
    name: 'PayFast ITN with an empty body',
    method: 'POST',
    path: '/api/v1/billing/payfast/webhook',
    as: 'anonymous',
    raw: '',
    contentType: 'application/x-www-form-urlencoded',
    status: 401,
    code: 'INVALID_SIGNATURE',
  },

  // Arrays (and scalars) where an object is expected.
  {
    name: 'job body is an array of jobs',
    method: 'POST',
    path: '/api/v1/kyt/job',
    json: [job({})],
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'body',
  },
  {
    name: 'job body is a bare number',
    method: 'POST',
    path: '/api/v1/kyt/job',
    raw: '42',
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'body',
  },
  {
    name: 'credits grant body is an array',
    method: 'POST',
    path: '/api/v1/credits/grant',
    as: 'admin',
    json: [{ userId: 'user_x', amount: 1 }],
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'body',
  },
  {
    name: 'market query filters is an array',
    method: 'POST',
    path: '/api/v1/query',
    json: { connector: 'kraken', dataType: 'candles', filters: [{ symbol: 'BTC-USD' }] },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'filters',
  },
  {
    name: 'history webhook body is an array',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    json: [kyaRecord],
    status: 400,
    error: 'The body must be a JSON object',
  },
  {
    name: 'history webhook metadata is an array',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'history-webhook',
    json: { ...kyaRecord, metadata: [1, 2] },
    status: 400,
    parameter: 'metadata',
    error: 'metadata must be a JSON object or null',
  },
  {
    name: 'x402 KYE body is an array',
    method: 'POST',
    path: '/api/v1/x402/kye/report',
    as: 'anonymous',
    json: [{ name: 'Garantex' }],
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'body',
  },

  // Webhook signatures and their headers.
  {
    name: 'PayPal certificate URL on another host (never fetched)',
    method: 'POST',
    path: '/api/v1/billing/paypal/webhook',
    as: 'anonymous',
    json: { id: 'WH-1', event_type: 'PAYMENT.SALE.COMPLETED' },
    headers: {
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': 'http://127.0.0.1:1/cert.pem',
      'paypal-transmission-id': randomUUID(),
      'paypal-transmission-time': new Date().toISOString(),
      'paypal-transmission-sig': 'AAAA',
    },
    status: 401,
    code: 'INVALID_SIGNATURE',
  },
  {
    name: 'PayPal certificate URL with file://',
    method: 'POST',
    path: '/api/v1/billing/paypal/webhook',
    as: 'anonymous',
    json: { id: 'WH-2' },
    headers: {
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': 'file:///etc/passwd',
      'paypal-transmission-id': randomUUID(),
      'paypal-transmission-time': new Date().toISOString(),
      'paypal-transmission-sig': 'AAAA',
    },
    status: 401,
    code: 'INVALID_SIGNATURE',
  },
  {
    name: 'Clerk svix-timestamp of 1e400',
    method: 'POST',
    path: '/api/webhook/clerk',
    as: 'anonymous',
    json: { type: 'user.created', data: {} },
    headers: { 'svix-id': 'msg_1', 'svix-timestamp': '1e400', 'svix-signature': 'v1,AAAA' },
    status: 401,
    code: 'INVALID_SIGNATURE',
  },
  {
    name: 'history webhook with the wrong secret',
    method: 'POST',
    path: '/api/webhook/activity',
    as: 'anonymous',
    headers: { 'x-activity-webhook-secret': `${HISTORY_WEBHOOK_SECRET}x` },
    json: kyaRecord,
    status: 401,
    error: 'Unauthorized',
  },
  // Issue 28: monitors and policies
  {
    name: 'monitor create by an account without credits for its first screening (nothing stored or started)',
    method: 'POST',
    path: '/api/v1/monitors',
    as: 'admin',
    json: { chain: 'ethereum', address: ETH_ADDRESS },
    status: 402,
    code: 'INSUFFICIENT_CREDITS',
  },
  {
    name: 'monitor every_hours of 1e400',
    method: 'POST',
    path: '/api/v1/monitors',
    raw: `{"chain":"ethereum","address":"${ETH_ADDRESS}","every_hours":1e400}`,
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'every_hours',
  },
  {
    name: 'policy edit with a cut-off of 1e400',
    method: 'PUT',
    path: '/api/v1/policies/hostile',
    raw: '{"levels":{"HIGH":1e400}}',
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'levels.HIGH',
  },
  {
    name: 'policy version of 1e400',
    path: '/api/v1/policies/hostile?version=1e400',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'version',
  },
  // Issue 29: the account's own labels (custom labels)
  {
    name: 'custom label whose body is an array',
    method: 'POST',
    path: '/api/v1/custom-labels',
    json: [{ chain: 'ethereum', address: ETH_ADDRESS, category: 'scam' }],
    status: 400,
    code: 'INVALID_PARAMETER',
  },
  {
    name: 'custom label whose category is an object',
    method: 'POST',
    path: '/api/v1/custom-labels',
    json: { chain: 'ethereum', address: ETH_ADDRESS, category: { $ne: null } },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'category',
  },
  {
    name: 'custom label whose address is SQL',
    method: 'POST',
    path: '/api/v1/custom-labels',
    json: { chain: 'ethereum', address: "0x' OR 1=1 --", category: 'scam' },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'address',
  },
  {
    name: 'custom label with an unknown field',
    method: 'POST',
    path: '/api/v1/custom-labels',
    json: { chain: 'ethereum', address: ETH_ADDRESS, category: 'scam', user_id: randomUUID() },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'user_id',
  },
  {
    name: 'custom label with a name of 201 characters',
    method: 'POST',
    path: '/api/v1/custom-labels',
    json: { chain: 'ethereum', address: ETH_ADDRESS, category: 'scam', name: 'n'.repeat(201) },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'name',
  },
  {
    name: 'custom label list with an offset of 1e400',
    path: '/api/v1/custom-labels?offset=1e400',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'offset',
  },
  {
    name: 'custom label list by address without its chain',
    path: `/api/v1/custom-labels?address=${ETH_ADDRESS}`,
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'chain',
  },
  {
    name: 'custom label delete of a non-uuid id',
    method: 'DELETE',
    path: "/api/v1/custom-labels/1'%20OR%201=1",
    status: 404,
    code: 'NOT_FOUND',
  },
  // Issue 28: batches, rescore, x402
  {
    name: 'batch whose every item the balance cannot hold (nothing stored, held or started)',
    method: 'POST',
    path: '/api/v1/kyt/batch',
    as: 'admin',
    json: {
      items: [
        { chain: 'ethereum', address: ETH_ADDRESS },
        { chain: 'bitcoin', address: BTC_ADDRESS },
      ],
    },
    status: 402,
    code: 'INSUFFICIENT_CREDITS',
  },
  {
    name: 'batch whose every item is invalid (nothing stored)',
    method: 'POST',
    path: '/api/v1/kyt/batch',
    json: {
      items: [
        { chain: 'ethereum', address: 'not-an-address' },
        { chain: 'litecoinz', address: ETH_ADDRESS },
      ],
    },
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'items[0].address',
  },
  {
    name: 'batch item with 1e400 in an extra field',
    method: 'POST',
    path: '/api/v1/kyt/batch',
    raw: `{"items":[{"chain":"ethereum","address":"${ETH_ADDRESS}","score":1e400}]}`,
    contentType: 'application/json',
    status: 400,
    code: 'INVALID_PARAMETER',
    parameter: 'items.0.score',
  },
  {
    name: 'batch of 1 MB that is not JSON, without a key (refused before the body is read)',
    method: 'POST',
    path: '/api/v1/kyt/batch',
    as: 'anonymous',
    raw: `{"items":[${'x'.repeat(1_000_000)}`,
    contentType: 'application/json',
    status: 401,
    error: 'Authentication required',
  },
];

/** The parts of an answer a row is checked on. */
function observed(status: number, body: any) {
  const structured = body && typeof body.error === 'object' && body.error !== null;
  return {
    status,
    code: structured ? body.error.code : body?.code,
    parameter: structured ? body.error.details?.parameter : body?.field,
    error: typeof body?.error === 'string' ? body.error : undefined,
  };
}

const STACK_TRACE = /\n\s+at |\bat [\w.<>]+ \(.*:\d+:\d+\)|node_modules|\.ts:\d+/;

describe('hostile input: each hand-picked request gets its 4xx, never a 5xx or a stack trace', () => {
  let stack: TestStack;
  let node: AnvilNode;
  const users = {} as Record<'user' | 'admin', { id: string; key: string }>;
  const paypalCertFetches: string[] = [];

  beforeAll(async () => {
    node = await startAnvil({ chainId: 8453 });
    await installBaseUsdc(node.rpcUrl);
    stack = await startTestStack({
      env: {
        ...WEBHOOK_ENV,
        ACTIVITY_WEBHOOK_SECRET: HISTORY_WEBHOOK_SECRET,
        X402_PAY_TO: privateKeyToAccount(generatePrivateKey()).address,
        X402_RPC_URL: node.rpcUrl,
        X402_FACILITATOR_PRIVATE_KEY: FACILITATOR_KEY,
      },
      verifiers: { paypalVerifier: testPayPalVerifier({ fetchCalls: paypalCertFetches }) },
      worker: false,
    });
    users.user = await stack.createUser({ credits: 10 });
    users.admin = await stack.createUser({ role: 'admin' });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await node?.stop();
  });

  async function send(row: Row): Promise<{ status: number; text: string; body: any }> {
    const caller = row.as ?? 'user';
    const headers: Record<string, string> = {
      ...(caller === 'user' || caller === 'admin' ? { 'x-api-key': users[caller].key } : {}),
      ...(caller === 'history-webhook' ? { 'x-activity-webhook-secret': HISTORY_WEBHOOK_SECRET } : {}),
      ...(row.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(row.contentType ? { 'content-type': row.contentType } : {}),
      ...row.headers,
    };
    const body = row.json !== undefined ? JSON.stringify(row.json) : row.raw;
    // Bytes, so fetch adds no content type of its own and sends invalid UTF-8 as it is.
    const res = await fetch(`${stack.api.url}${row.path}`, {
      method: row.method ?? 'GET',
      headers,
      body: body === undefined ? undefined : new Uint8Array(Buffer.from(body)),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* checked below: every answer here is JSON */
    }
    return { status: res.status, text, body: parsed };
  }

  test.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const { status, text, body } = await send(row);
    expect(text).not.toMatch(STACK_TRACE);
    expect(body).not.toBeNull();
    const expected = { status: row.status, code: row.code, parameter: row.parameter, error: row.error };
    const got = observed(status, body);
    expect({
      status: got.status,
      code: row.code === undefined ? undefined : got.code,
      parameter: row.parameter === undefined ? undefined : got.parameter,
      error: row.error === undefined ? undefined : got.error,
    }).toEqual({
      ...expected,
      parameter: row.parameter instanceof RegExp ? expect.stringMatching(row.parameter) : row.parameter,
      error: row.error instanceof RegExp ? expect.stringMatching(row.error) : row.error,
    });
  });

  test(
    'when every row has been sent, then Object.prototype is untouched and the PayPal certificate was ' +
      'never fetched from elsewhere',
    () => {
      const probe = {} as Record<string, unknown>;
      expect([
        probe.polluted,
        probe.role,
        Object.getOwnPropertyNames(Object.prototype).filter((name) => ['polluted', 'role'].includes(name)),
      ]).toEqual([undefined, undefined, []]);
      expect(paypalCertFetches).toEqual([]);
    },
  );

  test(
    'when the history is searched for LIKE wildcards and SQL, then they match literally: nothing, ' +
      'though the user has records',
    async () => {
      const recorded = await send({
        name: 'seed',
        method: 'POST',
        path: '/api/webhook/activity',
        as: 'history-webhook',
        json: { ...kyaRecord, userId: users.user.id },
        status: 201,
      });
      expect(recorded.status).toBe(201);
      const totals: Record<string, number> = {};
      for (const q of ['%%', '_%', "' OR '1'='1", '0x%', ETH_ADDRESS.slice(2, 12)]) {
        const res = await send({ name: q, path: `/api/v1/activity?q=${encodeURIComponent(q)}`, status: 200 });
        expect(res.status).toBe(200);
        totals[q] = res.body.pagination.total;
      }
      // The last search is a real substring of the recorded address: the control that the search works at all.
      expect(totals).toEqual({ '%%': 0, '_%': 0, "' OR '1'='1": 0, '0x%': 0, [ETH_ADDRESS.slice(2, 12)]: 1 });
    },
  );

  test(
    'when signed webhooks carry U+0000, __proto__ keys or deep nesting, ' +
      'then each is refused with 400 and nothing is started',
    async () => {
      const signedPayPal = (event: string) => post(stack.api.url, '/api/v1/billing/paypal/webhook', signPayPal(event));
      const signedClerk = (event: string) => post(stack.api.url, '/api/webhook/clerk', clerkDelivery(event));
      const paypalEvent = (extra: string) =>
        `{"id":"WH-${randomUUID()}","event_type":"CUSTOMER.DISPUTE.CREATED","resource":{"note":"x"${extra}}}`;
      const clerkEvent = (extra: string) =>
        `{"type":"user.updated","object":"event","data":{"id":"user_hostile","email_addresses":[]${extra}}}`;
      const answers = [
        await signedPayPal(paypalEvent(',"memo":"a\\u0000b"')),
        await signedPayPal(paypalEvent(',"__proto__":{"polluted":"paypal"}')),
        await signedPayPal(paypalEvent(`,"deep":${nestedObjects(5_000)}`)),
        await signedClerk(clerkEvent(',"first_name":"a\\u0000b"')),
        await signedClerk(clerkEvent(',"__proto__":{"polluted":"clerk"}')),
        await signedClerk(clerkEvent(`,"deep":${nestedArrays(5_000)}`)),
      ];
      expect(answers.map((a) => [a.status, a.body?.code])).toEqual(Array(6).fill([400, 'INVALID_EVENT']));
      for (const a of answers) expect(a.text).not.toMatch(STACK_TRACE);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  test(
    'when a KYE search is paid for with SQL metacharacters or LIKE wildcards as the name, ' +
      'then it is 404 and nothing is charged',
    async () => {
      const payer = privateKeyToAccount(generatePrivateKey());
      await mintUsdc(node.rpcUrl, payer.address, 5_000_000n);
      const paying = wrapFetchWithPayment(
        fetch,
        new x402Client().register('eip155:8453', new ExactEvmClientScheme(payer)),
      );
      const statuses: Record<string, [number, string]> = {};
      for (const name of ["'; DROP TABLE ref_entities; --", '%%', "Qqzx' OR '1'='1"]) {
        const res = await paying(`${stack.api.url}/api/v1/x402/kye/report`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        statuses[name] = [res.status, (await res.json()).code];
      }
      expect(statuses).toEqual({
        "'; DROP TABLE ref_entities; --": [404, 'ENTITY_NOT_FOUND'],
        '%%': [404, 'ENTITY_NOT_FOUND'],
        "Qqzx' OR '1'='1": [404, 'ENTITY_NOT_FOUND'],
      });
      expect(await usdcBalance(node.rpcUrl, payer.address)).toBe(5_000_000n);
    },
  );
});
