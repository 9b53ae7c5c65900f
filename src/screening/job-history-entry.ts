import type { HistoryEntry } from '../history';
import type { AnalysisResult } from './engine/types';
import type { ScreeningInput } from './workflow-types';

/** A completed job's history entry: idempotency key `screening:<request_id>` (one row per job, ever). */
export function jobHistoryEntry(job: ScreeningInput, result: AnalysisResult): HistoryEntry {
  const r = result.response;
  return {
    userRef: job.userId,
    idempotencyKey: `screening:${job.requestId}`,
    activityType: job.apiType === 'KYT' ? 'kyt' : 'kya',
    requestId: job.requestId,
    responseId: r.response_id,
    statusCode: 200,
    blockchain: job.chain,
    transactionHash: job.apiType === 'KYT' ? job.target : null,
    address: job.apiType === 'KYA' ? job.target : r.target_summary.address,
    entityId: null,
    entityName: null,
    riskLevel: r.risk_level.toLowerCase() as 'low' | 'medium' | 'high',
    riskScore: r.risk_score,
    requestPayload: {
      chain: job.chain,
      [job.apiType === 'KYT' ? 'txid' : 'address']: job.target,
      crawlTimeout: job.crawlTimeoutMs,
      reference_id: job.referenceId,
    },
    responsePayload: r,
    responseSummary: { risk_level: r.risk_level, risk_score: r.risk_score, risk_reason: r.risk_reason },
    errorMessage: null,
    metadata: { referenceId: job.referenceId },
    clientAppId: null,
    clientAppName: null,
    source: 'screening',
  };
}
