/** One report workflow per paid request: `x402:<kind>:<request id>`. */
export const x402ReportWorkflowId = (kind: string, requestId: string): string => `x402:${kind}:${requestId}`;
