import type { Pool } from 'pg';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logging/logger';
import { applyListIssue, type ApplyOutcome } from './apply-list-issue';
import type { ListStore } from './list-store';
import { parseSdnAdvanced, SdnFormatError } from './ofac/sdn-advanced-parser';
import { openSdnSource } from './ofac/sdn-source';
import type { ListRefreshInput } from './workflow-types';
import { LISTS_ERRORS } from './error-codes';

/**
 * Reads an OFAC SDN Advanced issue from `source` (file or URL, streamed) and makes it the active version.
 * A document that is not an SDN issue fails for good (LIST_SOURCE_INVALID); a source that cannot be reached
 * fails as it is, so a schedule's retry policy tries again.
 */
export async function refreshOfacList(
  deps: { pool: Pool; lists: ListStore; log?: Logger },
  input: ListRefreshInput,
  signal?: AbortSignal,
): Promise<ApplyOutcome> {
  const started = Date.now();
  const sdn = await parseSdnAdvanced(await openSdnSource(input.source, signal)).catch((err: unknown) => {
    if (err instanceof SdnFormatError)
      throw new AppError(LISTS_ERRORS.LIST_SOURCE_INVALID, err.message, { cause: err });
    throw err;
  });
  const parsedMs = Date.now() - started;
  const outcome = await applyListIssue(
    deps,
    { list: 'ofac', source: input.source, issueDate: sdn.issueDate, sha256: sdn.sha256, entries: sdn.entries },
    { force: input.force },
  );
  deps.log?.info(outcome.status === 'applied' ? 'OFAC list version applied' : 'OFAC issue already loaded', {
    source: input.source,
    issueDate: sdn.issueDate,
    version: outcome.version.id,
    entries: sdn.entries.length,
    bytes: sdn.bytes,
    parsedMs,
    appliedMs: Date.now() - started - parsedMs,
    ...(outcome.status === 'applied'
      ? { added: outcome.diff.added.length, removed: outcome.diff.removed.length, changed: outcome.diff.changed.length }
      : {}),
  });
  return outcome;
}
