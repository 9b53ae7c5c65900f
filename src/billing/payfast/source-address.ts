import { Resolver } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { PayFastMode } from './server-validation';

/** PayFast docs "Ports and IPs": the ranges ITNs are sent from. */
export const PAYFAST_SOURCE_CIDRS: readonly string[] = Object.freeze([
  '197.97.145.144/28',
  '41.74.179.192/27',
  '102.216.36.0/28',
  '102.216.36.128/28',
  '144.126.193.139/32',
]);

const SANDBOX_HOST = 'sandbox.payfast.co.za';

/** PayFast docs "Confirm payment": a valid sender is one of the addresses these names resolve to. */
export const PAYFAST_SOURCE_HOSTNAMES: readonly string[] = Object.freeze([
  'www.payfast.co.za',
  'w1w.payfast.co.za',
  'w2w.payfast.co.za',
  SANDBOX_HOST,
]);

/**
 * The hostnames whose addresses may send ITNs in `mode`. Live refuses the sandbox host: its ITNs are test payments
 * anyone can make, so a sandbox sender must never pass as PayFast where money is real.
 */
export function payfastSourceHostnames(mode: PayFastMode): readonly string[] {
  return mode === 'live' ? PAYFAST_SOURCE_HOSTNAMES.filter((host) => host !== SANDBOX_HOST) : PAYFAST_SOURCE_HOSTNAMES;
}

const DEFAULT_CACHE_TTL_MS = 10 * 60_000;
// A failed lookup is retried sooner than a successful one is refreshed, so a DNS blip does not shut out the
// DNS-listed senders for the whole TTL, while a DNS outage still costs at most one lookup per this interval.
const FAILED_LOOKUP_TTL_MS = 30_000;

type Family = 'ipv4' | 'ipv6';

function familyOf(address: string): Family | null {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

/** Invalid entries are a configuration error, so they throw when the check is created, not per request. */
function cidrBlockList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', prefixText, ...rest] = cidr.split('/');
    const family = familyOf(address);
    const maxPrefix = family === 'ipv4' ? 32 : 128;
    const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
    if (!family || rest.length > 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix) {
      throw new Error(`invalid PayFast source CIDR "${cidr}"`);
    }
    list.addSubnet(address, prefix, family);
  }
  return list;
}

/**
 * Node's BlockList also matches IPv4-mapped IPv6 (::ffff:1.2.3.4, as req.ip reports on a dual-stack socket)
 * against IPv4 entries.
 */
function contains(list: BlockList, address: string, family: Family): boolean {
  try {
    return list.check(address, family);
  } catch {
    return false;
  }
}

function defaultResolve(): (host: string) => Promise<string[]> {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  return async (host) => {
    const results = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const addresses = results.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
    if (addresses.length === 0) throw new Error(`could not resolve ${host}`);
    return addresses;
  };
}

/**
 * Builds the "did this ITN come from PayFast" check. Pass `req.ip` with Express `trust proxy` configured, never a
 * raw X-Forwarded-For entry, which the client controls. The DNS half is resolved on first need and cached; a DNS
 * failure only empties that half, so the check never throws and the CIDR half keeps working.
 */
export function createPayFastSourceCheck(deps: {
  /** Which hostnames count when `hostnames` is not given (payfastSourceHostnames); default live. */
  mode?: PayFastMode;
  cidrs?: readonly string[];
  hostnames?: readonly string[];
  resolve?: (host: string) => Promise<string[]>;
  cacheTtlMs?: number;
  now?: () => number;
}): (ip: string | undefined) => Promise<boolean> {
  const cidrList = cidrBlockList(deps.cidrs ?? PAYFAST_SOURCE_CIDRS);
  const hostnames = deps.hostnames ?? payfastSourceHostnames(deps.mode ?? 'live');
  const resolve = deps.resolve ?? defaultResolve();
  const cacheTtlMs = deps.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
  const now = deps.now ?? Date.now;

  let cached: { list: BlockList; expiresAt: number } | undefined;
  let inFlight: Promise<BlockList> | undefined;

  async function resolveHost(host: string): Promise<string[]> {
    const addresses: unknown = await resolve(host);
    if (!Array.isArray(addresses)) throw new Error(`resolver returned no address list for ${host}`);
    return addresses.filter((address): address is string => typeof address === 'string');
  }

  async function refresh(): Promise<BlockList> {
    // Promise.resolve().then() turns a resolver that throws synchronously into a rejection like any other failure.
    const results = await Promise.allSettled(hostnames.map((host) => Promise.resolve().then(() => resolveHost(host))));
    const list = new BlockList();
    let failed = false;
    for (const result of results) {
      if (result.status === 'rejected') {
        failed = true;
        continue;
      }
      for (const address of result.value) {
        const family = familyOf(address);
        if (family) list.addAddress(address, family);
      }
    }
    cached = { list, expiresAt: now() + (failed ? Math.min(cacheTtlMs, FAILED_LOOKUP_TTL_MS) : cacheTtlMs) };
    return list;
  }

  function dnsList(): Promise<BlockList> {
    if (cached && now() < cached.expiresAt) return Promise.resolve(cached.list);
    // Concurrent ITNs share one lookup instead of each starting their own.
    inFlight ??= refresh().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  return async (ip) => {
    if (typeof ip !== 'string') return false;
    const family = familyOf(ip);
    if (!family) return false;
    if (contains(cidrList, ip, family)) return true;
    if (hostnames.length === 0) return false;
    try {
      return contains(await dnsList(), ip, family);
    } catch {
      return false;
    }
  };
}
