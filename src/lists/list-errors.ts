import { AppError } from '../platform/errors';
import { LISTS_ERRORS } from './error-codes';

/** An issue dated before the active one would silently delist what was designated since: refused unless forced. */
export class OlderListIssueError extends AppError {
  constructor(
    readonly issueDate: string,
    readonly activeIssueDate: string,
  ) {
    super(
      LISTS_ERRORS.LIST_ISSUE_OUTDATED,
      `the issue of ${issueDate} is older than the active version (${activeIssueDate}); ` +
        'loading it would delist what was designated since: force it to load anyway',
    );
  }
}
