import { isIP } from 'node:net';
import { z } from 'zod';

/** What Express's `trust proxy` setting takes: all/none, a hop count, or the proxies' addresses, subnets and names. */
export type TrustProxySetting = boolean | number | string[];

/** The address groups Express (proxy-addr) knows by name. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4 netmask (255.255.0.0): contiguous ones, then zeros. */
function isNetmask(mask: string): boolean {
  if (isIP(mask) !== 4) return false;
  const bits = mask
    .split('.')
    .map((octet) => Number(octet).toString(2).padStart(8, '0'))
    .join('');
  return /^1*0*$/.test(bits);
}

/** One entry of the list: a name, an address, or a subnet as address/prefix or IPv4 address/netmask. */
function isProxyEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isNetmask(range);
}

const EXPECTED =
  'true, false, a hop count (0-100), or comma-separated proxy addresses, subnets (10.0.0.0/8) or ' +
  'loopback/linklocal/uniquelocal';

/**
 * TRUST_PROXY read into the type Express expects. Handing Express the raw text would make "true" a list of one
 * address named "true", which it refuses when the app is built: the api would not start.
 */
export const trustProxySchema = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): TrustProxySetting => {
    if (value === undefined || value === '' || /^false$/i.test(value)) return false;
    if (/^true$/i.test(value)) return true;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 100) return hops;
      ctx.addIssue({ code: 'custom', message: EXPECTED });
      return z.NEVER;
    }
    const entries = value.split(',').map((entry) => entry.trim());
    const invalid = entries.filter((entry) => !isProxyEntry(entry));
    if (invalid.length > 0) {
      ctx.addIssue({ code: 'custom', message: `${EXPECTED}; not understood: ${invalid.join(', ')}` });
      return z.NEVER;
    }
    return entries;
  });
