import type { CaseRecord } from '../case-queries';
import { type CaseFileSources, gatherCaseFile } from './case-file-material';
import { renderCaseFile } from './render-case-file';

/** The case file of a case the caller's account has (the route has found it): PDF bytes. */
export type CaseFileMaker = (record: CaseRecord, accountId: string) => Promise<Buffer>;

/** Gathers the case's material within CASE_FILE_LIMITS, then renders it. */
export function createCaseFileMaker(sources: CaseFileSources): CaseFileMaker {
  return async (record, accountId) => renderCaseFile(await gatherCaseFile(sources, record, accountId));
}
