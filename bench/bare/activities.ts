/**
 * No-op stand-ins for the screening workflow's four activities (analyzeTarget, chargeCredits,
 * recordScreeningActivity, saveJobResult): what is left is Temporal's own cost per activity.
 */
export const bareActivities = {
  async bareAnalyze(): Promise<void> {},
  async bareCharge(): Promise<void> {},
  async bareRecord(): Promise<void> {},
  async bareSave(): Promise<void> {},
};

export type BareActivities = typeof bareActivities;
