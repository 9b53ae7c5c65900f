import { useEffect, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { pricingResponse } from '../../../screening';
import type { ApiClient } from '../api-client';
import { useSession } from '../context';

/** GET /api/v1/kyt/pricing `data`: what screening charges, from the constants the server charges by. */
export type ScreeningPricing = z.output<typeof pricingResponse>['data'];

/** One read per signed-in client: the prices change only with a deployment, and three forms state them. */
const readOnce = new WeakMap<ApiClient, Promise<ScreeningPricing>>();

function pricingOf(api: ApiClient): Promise<ScreeningPricing> {
  let read = readOnce.get(api);
  if (!read) {
    read = api.get<{ data: ScreeningPricing }>('/api/v1/kyt/pricing').then((body) => body.data);
    // A failed read is not kept: the next form that needs the prices asks again.
    read.catch(() => readOnce.delete(api));
    readOnce.set(api, read);
  }
  return read;
}

/** The prices, or null until they are in (or when they could not be read: the forms then state no figures). */
export function useScreeningPricing(): ScreeningPricing | null {
  const { api } = useSession();
  const [pricing, setPricing] = useState<ScreeningPricing | null>(null);
  useEffect(() => {
    let current = true;
    pricingOf(api)
      .then((read) => current && setPricing(read))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [api]);
  return pricing;
}
