import { createCertificateCache } from '../../src/billing/paypal/certificate-cache';

const HOUR = 60 * 60 * 1000;

function setup(maxEntries = 50) {
  let now = 1_000_000;
  const loads: string[] = [];
  const cache = createCertificateCache<{ key: string; validTo: number }>({
    now: () => now,
    expiresAt: (value) => value.validTo,
    maxEntries,
  });
  const get = (key: string, validTo = now + 1000 * HOUR) =>
    cache.get(key, async () => {
      loads.push(key);
      return { key, validTo };
    });
  return { cache, get, loads, advance: (ms: number) => (now += ms), now: () => now };
}

describe('certificate cache', () => {
  it('evicts the least recently used entry beyond maxEntries', async () => {
    const { cache, get, loads } = setup(2);
    await get('a');
    await get('b');
    await get('a'); // a is now more recent than b
    await get('c'); // evicts b
    expect(cache.size).toBe(2);
    await get('a');
    await get('b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('expires an entry at its own validTo when that comes before 24 h', async () => {
    const { get, loads, advance, now } = setup();
    await get('a', now() + HOUR);
    advance(HOUR - 1);
    await get('a');
    expect(loads).toEqual(['a']);
    advance(1);
    await get('a');
    expect(loads).toEqual(['a', 'a']);
  });

  it('does not store a value that is already expired', async () => {
    const { cache, get, loads, now } = setup();
    await get('a', now() - 1);
    await get('a', now() - 1);
    expect(loads).toEqual(['a', 'a']);
    expect(cache.size).toBe(0);
  });

  it('shares one in-flight load and remembers a rejected one for failureTtlMs, apart from the values', async () => {
    let now = 1_000_000;
    const cache = createCertificateCache<{ key: string; validTo: number }>({
      now: () => now,
      expiresAt: (value) => value.validTo,
      maxEntries: 1,
      failureTtlMs: 1000,
    });
    let calls = 0;
    const failing = () => {
      calls += 1;
      return Promise.reject(new Error('boom'));
    };
    const good = async () => ({ key: 'good', validTo: Number.MAX_SAFE_INTEGER });
    await cache.get('good', good);
    const results = await Promise.allSettled([
      cache.get('a', failing),
      cache.get('a', failing),
      cache.get('a', failing),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(calls).toBe(1);
    now += 999;
    await expect(cache.get('a', failing)).rejects.toThrow('boom');
    expect(calls).toBe(1);
    // Failures never push a value out, even with room for one value only.
    await expect(cache.get('good', () => Promise.reject(new Error('must not load')))).resolves.toMatchObject({
      key: 'good',
    });
    now += 1;
    await expect(cache.get('a', async () => ({ key: 'a', validTo: Number.MAX_SAFE_INTEGER }))).resolves.toEqual({
      key: 'a',
      validTo: Number.MAX_SAFE_INTEGER,
    });
    expect(cache.size).toBe(1);
  });
});
