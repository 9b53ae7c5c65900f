/**
 * No-op stand-ins for the screening workflow's steps (analyzeTarget, then settleCompletedJob as a local activity):
 * what is left is Temporal's own cost per step.
 */
export const bareActivities = {
  async bareAnalyze(): Promise<void> {},
  async bareSettle(): Promise<void> {},
};

export type BareActivities = typeof bareActivities;
