import { creditsWord } from '../credits/credits-word';
import type { ScreeningPricing } from './use-screening-pricing';

/**
 * "1 credit plus 1 per further hop the exposure crawl reaches", from the server's figures; before they are in, the
 * same rule without them.
 */
export const jobPriceWords = (pricing: ScreeningPricing | null): string =>
  pricing
    ? `${creditsWord(pricing.analysis.minimum_credits)} plus ${pricing.analysis.credits_per_further_hop} per ` +
      'further hop the exposure crawl reaches'
    : 'a minimum in credits plus more for every further hop the exposure crawl reaches';
