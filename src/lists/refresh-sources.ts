import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { ListsConfig } from './config';
import { AppError } from '../platform/errors';
import type { ListRefreshInput } from './workflow-types';
import { LISTS_ERRORS } from './error-codes';

/**
 * Where a list refresh started through Temporal may read, from the worker's own config: whoever reaches the
 * Temporal frontend can start listRefreshWorkflow with any input, so the input is checked against these.
 */
export interface ListRefreshSources {
  /** OFAC_REFRESH_SOURCE: the URL or file the schedule reads. */
  refreshSource: string;
  /** OFAC_ISSUE_DIR: files inside it are allowed too; null when unset. */
  issueDir: string | null;
}

export function listRefreshSources(
  config: Pick<ListsConfig, 'OFAC_REFRESH_SOURCE' | 'OFAC_ISSUE_DIR'>,
): ListRefreshSources {
  return { refreshSource: config.OFAC_REFRESH_SOURCE, issueDir: config.OFAC_ISSUE_DIR ?? null };
}

const notConfigured = (message: string) => new AppError(LISTS_ERRORS.LIST_SOURCE_NOT_CONFIGURED, message);

/** `file` resolved with its symlinks followed lies inside `dir` (also resolved), not the directory itself. */
async function resolvedInside(dir: string, file: string): Promise<string | null> {
  const [realDir, realFile] = await Promise.all([realpath(dir), realpath(file)]).catch(() => [null, null]);
  if (realDir === null || realFile === null) return null;
  const relative = path.relative(realDir, realFile);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return realFile;
}

/**
 * The source a refresh workflow's input may read, or LIST_SOURCE_NOT_CONFIGURED (not retryable) before anything
 * is read: the configured OFAC_REFRESH_SOURCE as written, or a file that resolves inside OFAC_ISSUE_DIR (the
 * resolved path, not the input's, is what is read). A forced load delists
 * what was designated since, so it is refused here whatever the source: only `npm run lists:update -- --force`,
 * run by an operator on a machine with the database's credentials, forces one.
 */
export async function checkRefreshInput(
  sources: ListRefreshSources | undefined,
  input: ListRefreshInput,
): Promise<string> {
  if (input?.force !== undefined && input.force !== false)
    throw notConfigured('a forced load is not accepted from a workflow: run npm run lists:update -- --force');
  if (input?.list !== 'ofac')
    throw notConfigured(`no refresh is configured for the list ${JSON.stringify(input?.list)?.slice(0, 40)}`);
  const source = input.source;
  if (typeof source !== 'string' || source === '') throw notConfigured('the refresh input names no source');
  if (!sources) throw notConfigured('this worker has no list refresh sources configured');
  if (source === sources.refreshSource) return source;
  if (sources.issueDir !== null) {
    // The resolved absolute path is read as a file, whatever the input looked like (a URL resolves to no file).
    const resolved = await resolvedInside(sources.issueDir, source);
    if (resolved !== null) return resolved;
  }
  throw notConfigured(
    'the source is neither OFAC_REFRESH_SOURCE nor a file inside OFAC_ISSUE_DIR: ' +
      'a refresh reads only the configured sources',
  );
}
