import type { Chain } from '../chains/chain';
import { capabilitiesFor } from './capabilities';
import type { AnalysisResult } from './types';
import { type AnalysisRequest, type EngineDeps, startAnalysisJob } from './analysis-job';
import { screenAddress } from './kya-screening';
import { screenTransaction } from './kyt-screening';
import { assembleAnswer } from './answer-assembly';

/** The analysis engine: no Temporal in here, only chain clients, reference lists and the scoring model. */
export function createScreeningEngine(deps: EngineDeps) {
  const now = deps.now ?? (() => Date.now());
  return {
    capabilities: capabilitiesFor(Object.keys(deps.chainClients) as Chain[]),

    /** KYA screens an address, KYT a transaction; the answer is assembled alike from what either found. */
    async analyze(req: AnalysisRequest, signal: AbortSignal): Promise<AnalysisResult> {
      const job = await startAnalysisJob(deps, req, signal, now);
      const findings = req.apiType === 'KYT' ? await screenTransaction(job) : await screenAddress(job);
      return assembleAnswer(job, findings);
    },
  };
}

export type ScreeningEngine = ReturnType<typeof createScreeningEngine>;
