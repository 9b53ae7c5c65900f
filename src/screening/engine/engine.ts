import type { Chain } from '../chains/chain';
import { capabilitiesFor } from './capabilities';
import type { AnalysisResult } from './types';
import { type AnalysisInput, type EngineDeps, startAnalysisRun } from './analysis-run';
import { screenAddress } from './kya-screening';
import { screenTransaction } from './kyt-screening';
import { assembleAnswer } from './answer-assembly';

/** The analysis engine: no Temporal in here, only chain clients, reference data and the scoring model. */
export function createScreeningEngine(deps: EngineDeps) {
  const now = deps.now ?? (() => Date.now());
  return {
    capabilities: capabilitiesFor(Object.keys(deps.chainClients) as Chain[]),

    /** KYA screens an address, KYT a transaction; the answer is assembled alike from what either found. */
    async analyze(input: AnalysisInput, signal: AbortSignal): Promise<AnalysisResult> {
      const run = await startAnalysisRun(deps, input, signal, now);
      const findings = input.apiType === 'KYT' ? await screenTransaction(run) : await screenAddress(run);
      return assembleAnswer(run, findings);
    },
  };
}

export type ScreeningEngine = ReturnType<typeof createScreeningEngine>;
