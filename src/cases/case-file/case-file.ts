import type { CaseRecord } from '../case-queries';
import { type CaseFileSources, gatherCaseFile } from './case-file-material';
import { CASE_FILE_LIMITS } from './case-file-limits';
import { renderCaseFile } from './render-case-file';

/** The case file of a case the caller's account has (the route has found it): PDF bytes. */
export type CaseFileMaker = (record: CaseRecord, accountId: string) => Promise<Buffer>;

/**
 * Gathers the case's material within CASE_FILE_LIMITS, then renders it. At most `rendersAtOnce` files are made at
 * the same time in this api process (rendering is CPU): the others wait their turn instead of starving the routes
 * that answer polls, so many downloads at once cost time, not the service.
 */
export function createCaseFileMaker(sources: CaseFileSources): CaseFileMaker {
  const turn = turns(CASE_FILE_LIMITS.rendersAtOnce);
  return (record, accountId) => turn(async () => renderCaseFile(await gatherCaseFile(sources, record, accountId)));
}

/** A FIFO semaphore: run() waits until fewer than `size` runs are under way. */
function turns(size: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    // A finished run hands its slot straight to the next waiter, so no newcomer slips in between.
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
