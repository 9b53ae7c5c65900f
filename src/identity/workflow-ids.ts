/** svix-id: the same on every delivery attempt of one Clerk message, so a redelivery is one workflow. */
export const clerkWorkflowId = (svixId: string): string => `clerk:${svixId}`;
