/** The schedule (and its runs' workflow id prefix) that refreshes one sanctions list, cluster-wide. */
export const listRefreshScheduleId = (list: string): string => `lists-refresh:${list}`;
