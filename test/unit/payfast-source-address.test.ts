import {
  createPayFastSourceCheck,
  PAYFAST_SOURCE_CIDRS,
  PAYFAST_SOURCE_HOSTNAMES,
} from '../../src/billing/payfast/source-address';

/** A resolver that must never be reached: proves the CIDR half answers without DNS. */
function noDns(): jest.Mock<Promise<string[]>, [string]> {
  return jest.fn<Promise<string[]>, [string]>(async () => {
    throw new Error('DNS must not be queried');
  });
}

describe('PayFast source address constants', () => {
  test('when read, then they list the documented ranges and hostnames', () => {
    // Assert
    expect(PAYFAST_SOURCE_CIDRS).toEqual([
      '197.97.145.144/28',
      '41.74.179.192/27',
      '102.216.36.0/28',
      '102.216.36.128/28',
      '144.126.193.139/32',
    ]);
    expect(PAYFAST_SOURCE_HOSTNAMES).toEqual([
      'www.payfast.co.za',
      'w1w.payfast.co.za',
      'w2w.payfast.co.za',
      'sandbox.payfast.co.za',
    ]);
  });
});

describe('createPayFastSourceCheck — CIDRs', () => {
  // First and last address of each documented range, and the neighbours just outside it.
  const inside = [
    '197.97.145.144',
    '197.97.145.159',
    '41.74.179.192',
    '41.74.179.223',
    '102.216.36.0',
    '102.216.36.15',
    '102.216.36.128',
    '102.216.36.143',
    '144.126.193.139',
  ];
  const outside = [
    '197.97.145.143',
    '197.97.145.160',
    '41.74.179.191',
    '41.74.179.224',
    '102.216.35.255',
    '102.216.36.16',
    '102.216.36.127',
    '102.216.36.144',
    '144.126.193.138',
    '144.126.193.140',
  ];

  test.each(inside)(
    'when the sender is %s (inside a documented range), then it is accepted without DNS',
    async (ip) => {
      // Arrange
      const resolve = noDns();
      const check = createPayFastSourceCheck({ resolve });

      // Act
      const accepted = await check(ip);

      // Assert
      expect(accepted).toBe(true);
      expect(resolve).not.toHaveBeenCalled();
    },
  );

  test.each(outside)(
    'when the sender is %s (just outside a range) and DNS knows nothing, then it is refused',
    async (ip) => {
      // Arrange
      const check = createPayFastSourceCheck({ resolve: async () => [] });

      // Act
      const accepted = await check(ip);

      // Assert
      expect(accepted).toBe(false);
    },
  );

  test.each(['::ffff:197.97.145.150', '::FFFF:41.74.179.200', '::ffff:c561:9196'])(
    'when the sender is the IPv4-mapped IPv6 form %s, then it is accepted',
    async (ip) => {
      // Arrange
      const check = createPayFastSourceCheck({ resolve: noDns() });

      // Act
      const accepted = await check(ip);

      // Assert
      expect(accepted).toBe(true);
    },
  );

  test('when the sender is a mapped address outside the ranges, then it is refused', async () => {
    // Arrange
    const check = createPayFastSourceCheck({ resolve: async () => [] });

    // Act
    const accepted = await check('::ffff:197.97.145.160');

    // Assert
    expect(accepted).toBe(false);
  });

  test.each([
    undefined,
    '',
    'garbage',
    '999.1.1.1',
    '197.97.145.150, 10.0.0.1',
    ' 197.97.145.150',
    '197.97.145.150/28',
  ])('when the sender is %j, then it is refused without DNS', async (ip) => {
    // Arrange
    const resolve = noDns();
    const check = createPayFastSourceCheck({ resolve });

    // Act
    const accepted = await check(ip);

    // Assert
    expect(accepted).toBe(false);
    expect(resolve).not.toHaveBeenCalled();
  });

  test('when custom CIDRs are configured, then they replace the defaults', async () => {
    // Arrange
    const check = createPayFastSourceCheck({ cidrs: ['10.1.2.0/24', '2001:db8::/32'], hostnames: [] });

    // Act
    const results = await Promise.all(['10.1.2.77', '2001:db8:1::5', '197.97.145.150'].map((ip) => check(ip)));

    // Assert
    expect(results).toEqual([true, true, false]);
  });

  test.each(['197.97.145.144/33', 'not-an-ip/28', '1.2.3.4/x', '1.2.3.4/8/8'])(
    'when a configured CIDR is %j, then creating the check throws',
    (cidr) => {
      // Act
      const create = () => createPayFastSourceCheck({ cidrs: [cidr] });

      // Assert
      expect(create).toThrow(cidr);
    },
  );
});

describe('createPayFastSourceCheck — DNS', () => {
  test('when the sender is an address the PayFast hostnames resolve to, then it is accepted', async () => {
    // Arrange
    const resolve = jest.fn(async (host: string) =>
      host === 'w1w.payfast.co.za' ? ['203.0.113.7', '2001:db8::7'] : [],
    );
    const check = createPayFastSourceCheck({ mode: 'sandbox', resolve });

    // Act
    const results = await Promise.all(
      ['203.0.113.7', '::ffff:203.0.113.7', '2001:db8:0::7', '203.0.113.8'].map((ip) => check(ip)),
    );

    // Assert
    expect(results).toEqual([true, true, true, false]);
    expect(resolve.mock.calls.map(([host]) => host).sort()).toEqual([...PAYFAST_SOURCE_HOSTNAMES].sort());
  });

  test.each([
    ['live', false, ['w1w.payfast.co.za', 'w2w.payfast.co.za', 'www.payfast.co.za']],
    ['sandbox', true, [...PAYFAST_SOURCE_HOSTNAMES].sort()],
  ] as const)(
    'when the mode is %s and the sender is the PayFast sandbox host, then accepted is %s',
    async (mode, accepted, looked) => {
      // Arrange
      const resolve = jest.fn(async (host: string) => (host === 'sandbox.payfast.co.za' ? ['203.0.113.9'] : []));
      const check = createPayFastSourceCheck({ mode, resolve });

      // Act
      const result = await check('203.0.113.9');

      // Assert
      expect(result).toBe(accepted);
      expect(resolve.mock.calls.map(([host]) => host).sort()).toEqual(looked);
    },
  );

  test('when no mode is given, then the sandbox host is refused (live)', async () => {
    // Arrange
    const check = createPayFastSourceCheck({
      resolve: async (host) => (host === 'sandbox.payfast.co.za' ? ['203.0.113.9'] : []),
    });

    // Act / Assert
    expect(await check('203.0.113.9')).toBe(false);
  });

  test('when the check is created, then DNS is not queried until an address outside the ranges arrives', async () => {
    // Arrange
    const resolve = jest.fn(async () => ['203.0.113.7']);

    // Act
    const check = createPayFastSourceCheck({ resolve, hostnames: ['www.payfast.co.za'] });
    const callsAfterCreate = resolve.mock.calls.length;
    await check('197.97.145.150');
    const callsAfterCidrHit = resolve.mock.calls.length;
    await check('203.0.113.7');

    // Assert
    expect(callsAfterCreate).toBe(0);
    expect(callsAfterCidrHit).toBe(0);
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  test.each([
    ['rejects', async () => Promise.reject(new Error('ENOTFOUND'))],
    [
      'throws synchronously',
      (() => {
        throw new Error('resolver exploded');
      }) as (host: string) => Promise<string[]>,
    ],
    ['returns a non-list', async () => 'not a list' as unknown as string[]],
  ])('when the resolver %s, then the check answers false without throwing', async (_case, resolve) => {
    // Arrange
    const check = createPayFastSourceCheck({ resolve, hostnames: ['www.payfast.co.za'] });

    // Act
    const accepted = check('203.0.113.7');

    // Assert
    await expect(accepted).resolves.toBe(false);
    await expect(check('197.97.145.150')).resolves.toBe(true);
  });

  test('when one hostname fails to resolve, then the addresses of the others are still accepted', async () => {
    // Arrange
    const resolve = jest.fn(async (host: string) => {
      if (host === 'www.payfast.co.za') throw new Error('SERVFAIL');
      return ['203.0.113.9'];
    });
    const check = createPayFastSourceCheck({ resolve, hostnames: ['www.payfast.co.za', 'sandbox.payfast.co.za'] });

    // Act
    const accepted = await check('203.0.113.9');

    // Assert
    expect(accepted).toBe(true);
  });

  test('when checked repeatedly within the TTL, then DNS is resolved once, and again after the TTL', async () => {
    // Arrange
    let clock = 1_000_000;
    let answer = ['203.0.113.7'];
    const resolve = jest.fn(async () => answer);
    const check = createPayFastSourceCheck({
      resolve,
      hostnames: ['www.payfast.co.za'],
      cacheTtlMs: 60_000,
      now: () => clock,
    });

    // Act
    const first = await check('203.0.113.7');
    clock += 30_000;
    const second = await check('203.0.113.7');
    const third = await check('203.0.113.8');
    const callsWithinTtl = resolve.mock.calls.length;
    answer = ['203.0.113.8'];
    clock += 30_001;
    const afterTtlOld = await check('203.0.113.7');
    const afterTtlNew = await check('203.0.113.8');

    // Assert
    expect([first, second, third]).toEqual([true, true, false]);
    expect(callsWithinTtl).toBe(1);
    expect([afterTtlOld, afterTtlNew]).toEqual([false, true]);
    expect(resolve).toHaveBeenCalledTimes(2);
  });

  test('when many checks arrive at once, then they share a single lookup', async () => {
    // Arrange
    const resolve = jest.fn(async () => ['203.0.113.7']);
    const check = createPayFastSourceCheck({ resolve, hostnames: ['www.payfast.co.za'] });

    // Act
    const results = await Promise.all(Array.from({ length: 5 }, () => check('203.0.113.7')));

    // Assert
    expect(results).toEqual([true, true, true, true, true]);
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  test('when a lookup failed, then it is cached briefly and retried after 30 s rather than the full TTL', async () => {
    // Arrange
    let clock = 0;
    const resolve = jest
      .fn<Promise<string[]>, [string]>()
      .mockRejectedValueOnce(new Error('timeout'))
      .mockResolvedValue(['203.0.113.7']);
    const check = createPayFastSourceCheck({
      resolve,
      hostnames: ['www.payfast.co.za'],
      cacheTtlMs: 600_000,
      now: () => clock,
    });

    // Act
    const duringOutage = await check('203.0.113.7');
    clock = 10_000;
    const stillCached = await check('203.0.113.7');
    clock = 30_001;
    const afterRetry = await check('203.0.113.7');

    // Assert
    expect([duringOutage, stillCached, afterRetry]).toEqual([false, false, true]);
    expect(resolve).toHaveBeenCalledTimes(2);
  });
});
