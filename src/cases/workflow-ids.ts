/** A case's workflow: one per case, its id also its Temporal workflow id (`case:<case id>`). */
export const caseWorkflowId = (caseId: string): string => `case:${caseId}`;
