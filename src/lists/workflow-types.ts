/** Input and result of a list refresh. Types only: the workflow bundle stays pure. */
export interface ListRefreshInput {
  list: 'ofac';
  /** A URL or a file path holding the issue. */
  source: string;
  /** Load an issue older than the active version (it delists what was designated since). */
  force?: boolean;
}

export interface ListRefreshResult {
  status: 'unchanged' | 'applied';
  version: number;
  issueDate: string;
  added: number;
  removed: number;
  changed: number;
}
