import type { Classifier } from '../../platform/http-client/http-client';

/** Etherscan's envelope: `status` "1" with a result array, or "0" with the reason in `result` (or `message`). */
interface EtherscanEnvelope {
  status?: unknown;
  message?: unknown;
  result?: unknown;
}

// Documented texts (docs.etherscan.io "Common Error Messages"); matched loosely because the suffix varies
// ("Invalid API Key (#err2)|8", "Max calls per sec rate limit reached (3/sec)").
const EMPTY = /^No (transactions|records|token transfers) found/i;
const RATE_LIMITED = /rate limit/i;
const BAD_KEY = /invalid api key|missing\/invalid api key|too many invalid api key/i;
const CHAIN_NOT_IN_PLAN = /not supported for this chain|upgrade your api plan|unsupported chainid/i;

/**
 * Etherscan v2 answers almost everything with HTTP 200, so the body decides: a list (possibly empty,
 * "No transactions found"), a rate limit worth the same request after a pause, or a refusal of our key
 * or plan (BNB Smart Chain needs a paid plan) that no retry can fix. `where` carries no URL: the key is
 * in the query string.
 */
export const etherscanRules: Classifier<unknown[]> = (answer, where) => {
  if (answer.status === 429 || answer.status >= 500) {
    return {
      kind: 'retry',
      reason: `${where}: HTTP ${answer.status}`,
      status: answer.status,
      afterMs: answer.retryAfterMs,
      rateLimited: answer.status === 429,
    };
  }
  const body = answer.json as EtherscanEnvelope | undefined;
  if (answer.status < 200 || answer.status >= 300 || !body || typeof body !== 'object') {
    return {
      kind: 'fail',
      reason: `${where}: HTTP ${answer.status} without an Etherscan envelope`,
      status: answer.status,
    };
  }
  if (body.status === '1' && Array.isArray(body.result)) return { kind: 'ok', value: body.result };
  const message = typeof body.message === 'string' ? body.message : '';
  if (EMPTY.test(message) || (Array.isArray(body.result) && body.result.length === 0)) return { kind: 'ok', value: [] };
  const said = typeof body.result === 'string' && body.result !== '' ? body.result : message || 'no reason given';
  if (RATE_LIMITED.test(said)) return { kind: 'retry', reason: `${where}: Etherscan: ${said}`, rateLimited: true };
  if (BAD_KEY.test(said))
    return { kind: 'fail', reason: `${where}: Etherscan refused ETHERSCAN_API_KEY: ${said}`, misconfigured: true };
  if (CHAIN_NOT_IN_PLAN.test(said))
    return {
      kind: 'fail',
      reason: `${where}: Etherscan does not serve this chain on the key's plan: ${said}`,
      misconfigured: true,
    };
  return { kind: 'fail', reason: `${where}: Etherscan: ${message ? `${message}: ` : ''}${said}` };
};
