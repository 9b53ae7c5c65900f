/** What the admin grant route counts (payment grants are counted by the worker's webhook events). */
export interface CreditGrantMetrics {
  creditsGranted(source: string, amount: number): void;
}
