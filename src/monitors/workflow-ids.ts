/** One long-running workflow per monitor: started at create, stopped by delete, signalled by list refreshes. */
export const monitorWorkflowId = (monitorId: string): string => `monitor:${monitorId}`;

/** The notification of one list version to the monitors it touches: once per version, however often asked. */
export const listVersionNoticeWorkflowId = (versionId: number): string => `list-version:${versionId}`;
