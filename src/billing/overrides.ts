import type { PayPalEventLookup } from './paypal/event-lookup';
import type { PayPalVerifier } from './paypal/verifier';

/** What tests (and only tests) replace in billing's runtime parts (FeatureRuntime.overrides, by these names). */
export interface BillingOverrides {
  /** A verifier with the test's own trust anchors, certificate fetcher and clock. */
  paypalVerifier?: PayPalVerifier;
  /** PayPal's copy of an event by id, for the worker's check of workflows started without their delivery. */
  paypalEventLookup?: PayPalEventLookup;
  /** PayFast's server validation (the worker's confirmation of an ITN with PayFast). */
  confirmWithPayFast?: (paramString: string) => Promise<boolean>;
  /** PayFast's sender check of an ITN's source address. */
  isPayFastSource?: (ip: string | undefined) => Promise<boolean>;
}
