import { x402Client } from '@x402/core/client';
import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from '@x402/evm/exact/facilitator';
import {
  createPublicClient,
  createWalletClient,
  hashDomain,
  http,
  keccak256,
  parseSignature,
  publicActions,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, signTypedData } from 'viem/accounts';
import { ANVIL_DEFAULT_ACCOUNT, startAnvil, type AnvilNode } from '../helpers/anvil';
import {
  anvilBaseChain,
  authorizationUsed,
  BASE_NETWORK,
  BASE_USDC,
  compileMockUsdc,
  installBaseUsdc,
  mintUsdc,
  usdcBalance,
} from '../helpers/base-usdc';

/** anvil's second well-known test account (prefunded with 10 000 ETH): the facilitator that pays gas. */
const ANVIL_ACCOUNT_1_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

const USDC_DOMAIN = { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: BASE_USDC } as const;
const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

interface Authorization {
  from: Address;
  to: Address;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
}

const now = (): bigint => BigInt(Math.floor(Date.now() / 1000));
const randomAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const randomNonce = (): Hex => generatePrivateKey(); // 32 random bytes

function signAuthorization(privateKey: Hex, message: Authorization): Promise<Hex> {
  return signTypedData({
    privateKey,
    domain: USDC_DOMAIN,
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message,
  });
}

describe('USDC stand-in at the Base USDC address on anvil (chain id 8453)', () => {
  let anvil: AnvilNode;
  const payerKey = generatePrivateKey();
  const payer = privateKeyToAccount(payerKey);

  const read = (functionName: string, args: unknown[] = []) =>
    createPublicClient({ chain: anvilBaseChain(anvil.rpcUrl), transport: http(anvil.rpcUrl) }).readContract({
      address: BASE_USDC,
      abi: compileMockUsdc().abi,
      functionName,
      args,
    });

  /**
   * Submits transferWithAuthorization from anvil's default unlocked account; resolves once mined, rejects on revert.
   */
  async function submit(auth: Authorization, signature: Hex, form: 'vrs' | 'bytes' = 'vrs'): Promise<void> {
    const chain = anvilBaseChain(anvil.rpcUrl);
    const wallet = createWalletClient({
      account: ANVIL_DEFAULT_ACCOUNT as Address,
      chain,
      transport: http(anvil.rpcUrl),
    });
    const base = [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce] as const;
    const { v, yParity, r, s } = parseSignature(signature);
    const args = form === 'vrs' ? [...base, Number(v ?? BigInt(yParity + 27)), r, s] : [...base, signature];
    const publicClient = createPublicClient({ chain, transport: http(anvil.rpcUrl) });
    // Simulate first (as any careful submitter does): a revert rejects here with the token's reason string.
    const { request } = await publicClient.simulateContract({
      account: ANVIL_DEFAULT_ACCOUNT as Address,
      address: BASE_USDC,
      abi: compileMockUsdc().abi,
      functionName: 'transferWithAuthorization',
      args,
    });
    const hash = await wallet.writeContract(request);
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transferWithAuthorization reverted in ${hash}`);
  }

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
    await installBaseUsdc(anvil.rpcUrl);
    await mintUsdc(anvil.rpcUrl, payer.address, 10_000_000n);
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  test(
    'when the runtime is installed at the Base USDC address, then it reads back as ' +
      'USD Coin v2 with 6 decimals and the USDC EIP-712 domain',
    async () => {
      expect(await read('name')).toBe('USD Coin');
      expect(await read('version')).toBe('2');
      expect(await read('symbol')).toBe('USDC');
      expect(await read('decimals')).toBe(6);
      expect(await read('totalSupply')).toBe(10_000_000n);
      expect(await usdcBalance(anvil.rpcUrl, payer.address)).toBe(10_000_000n);
      expect(await read('DOMAIN_SEPARATOR')).toBe(
        hashDomain({
          domain: { ...USDC_DOMAIN, chainId: 8453n },
          types: {
            EIP712Domain: [
              { name: 'name', type: 'string' },
              { name: 'version', type: 'string' },
              { name: 'chainId', type: 'uint256' },
              { name: 'verifyingContract', type: 'address' },
            ],
          },
        }),
      );
      expect(await read('TRANSFER_WITH_AUTHORIZATION_TYPEHASH')).toBe(
        keccak256(
          toHex(
            'TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 ' +
              'validBefore,bytes32 nonce)',
          ),
        ),
      );
    },
  );

  test(
    'when a signed transferWithAuthorization is submitted, then it moves exactly the value and marks the nonce ' +
      'used, and a replay reverts as used',
    async () => {
      const to = randomAddress();
      const auth: Authorization = {
        from: payer.address,
        to,
        value: 1_250_000n,
        validAfter: 0n,
        validBefore: now() + 3600n,
        nonce: randomNonce(),
      };
      const signature = await signAuthorization(payerKey, auth);
      const payerBefore = await usdcBalance(anvil.rpcUrl, payer.address);
      expect(await authorizationUsed(anvil.rpcUrl, payer.address, auth.nonce)).toBe(false);

      await submit(auth, signature);

      expect(await usdcBalance(anvil.rpcUrl, payer.address)).toBe(payerBefore - 1_250_000n);
      expect(await usdcBalance(anvil.rpcUrl, to)).toBe(1_250_000n);
      expect(await authorizationUsed(anvil.rpcUrl, payer.address, auth.nonce)).toBe(true);

      await expect(submit(auth, signature)).rejects.toThrow('FiatTokenV2: authorization is used or canceled');
      expect(await usdcBalance(anvil.rpcUrl, payer.address)).toBe(payerBefore - 1_250_000n);
      expect(await usdcBalance(anvil.rpcUrl, to)).toBe(1_250_000n);
    },
  );

  test('when the bytes-signature overload is used, then it moves the value just like v,r,s', async () => {
    const to = randomAddress();
    const auth: Authorization = {
      from: payer.address,
      to,
      value: 7n,
      validAfter: 0n,
      validBefore: now() + 3600n,
      nonce: randomNonce(),
    };
    const payerBefore = await usdcBalance(anvil.rpcUrl, payer.address);

    await submit(auth, await signAuthorization(payerKey, auth), 'bytes');

    expect(await usdcBalance(anvil.rpcUrl, payer.address)).toBe(payerBefore - 7n);
    expect(await usdcBalance(anvil.rpcUrl, to)).toBe(7n);
    expect(await authorizationUsed(anvil.rpcUrl, payer.address, auth.nonce)).toBe(true);
  });

  test('when the authorization has expired, then it reverts as expired and nothing moves', async () => {
    const to = randomAddress();
    const auth: Authorization = {
      from: payer.address,
      to,
      value: 1n,
      validAfter: 0n,
      validBefore: now() - 60n,
      nonce: randomNonce(),
    };
    const payerBefore = await usdcBalance(anvil.rpcUrl, payer.address);

    await expect(submit(auth, await signAuthorization(payerKey, auth))).rejects.toThrow(
      'FiatTokenV2: authorization is expired',
    );

    expect(await usdcBalance(anvil.rpcUrl, payer.address)).toBe(payerBefore);
    expect(await authorizationUsed(anvil.rpcUrl, payer.address, auth.nonce)).toBe(false);
  });

  test('when the authorization is not yet valid, then it reverts as not yet valid', async () => {
    const auth: Authorization = {
      from: payer.address,
      to: randomAddress(),
      value: 1n,
      validAfter: now() + 3600n,
      validBefore: now() + 7200n,
      nonce: randomNonce(),
    };

    await expect(submit(auth, await signAuthorization(payerKey, auth))).rejects.toThrow(
      'FiatTokenV2: authorization is not yet valid',
    );
  });

  test('when someone other than `from` signs, then it reverts as an invalid signature and nothing moves', async () => {
    const to = randomAddress();
    const auth: Authorization = {
      from: payer.address,
      to,
      value: 1_000_000n,
      validAfter: 0n,
      validBefore: now() + 3600n,
      nonce: randomNonce(),
    };
    const payerBefore = await usdcBalance(anvil.rpcUrl, payer.address);

    await expect(submit(auth, await signAuthorization(generatePrivateKey(), auth))).rejects.toThrow(
      'FiatTokenV2: invalid signature',
    );

    expect(await usdcBalance(anvil.rpcUrl, payer.address)).toBe(payerBefore);
    expect(await usdcBalance(anvil.rpcUrl, to)).toBe(0n);
    expect(await authorizationUsed(anvil.rpcUrl, payer.address, auth.nonce)).toBe(false);
  });

  test('when the authorization is worth more than the balance, then it reverts as exceeding the balance', async () => {
    const poorKey = generatePrivateKey();
    const poor = privateKeyToAccount(poorKey).address;
    const auth: Authorization = {
      from: poor,
      to: randomAddress(),
      value: 1n,
      validAfter: 0n,
      validBefore: now() + 3600n,
      nonce: randomNonce(),
    };

    await expect(submit(auth, await signAuthorization(poorKey, auth))).rejects.toThrow(
      'ERC20: transfer amount exceeds balance',
    );
  });

  describe('x402 exact scheme end to end (client payload → in-process facilitator verify + settle, no HTTP)', () => {
    const payTo = randomAddress();
    const requirements: PaymentRequirements = {
      scheme: 'exact',
      network: BASE_NETWORK,
      asset: BASE_USDC,
      amount: '1000000',
      payTo,
      maxTimeoutSeconds: 120,
      extra: { name: 'USD Coin', version: '2' },
    };
    let facilitator: x402Facilitator;
    let payload: PaymentPayload;

    beforeAll(async () => {
      const facilitatorAccount = privateKeyToAccount(ANVIL_ACCOUNT_1_KEY);
      const viemClient = createWalletClient({
        account: facilitatorAccount,
        chain: anvilBaseChain(anvil.rpcUrl),
        transport: http(anvil.rpcUrl),
      }).extend(publicActions);
      const signer = toFacilitatorEvmSigner(
        {
          address: facilitatorAccount.address,
          getCode: (args) => viemClient.getCode(args),
          readContract: (args) => viemClient.readContract({ ...args, args: args.args ?? [] }),
          verifyTypedData: (args) =>
            viemClient.verifyTypedData(args as Parameters<typeof viemClient.verifyTypedData>[0]),
          writeContract: (args) => viemClient.writeContract({ ...args, args: args.args ?? [] }),
          sendTransaction: (args) => viemClient.sendTransaction(args),
          waitForTransactionReceipt: (args) => viemClient.waitForTransactionReceipt(args),
        },
        { confirmationTimeoutMs: 30_000 },
      );
      facilitator = new x402Facilitator().register(BASE_NETWORK, new ExactEvmFacilitatorScheme(signer));

      const client = new x402Client().register(BASE_NETWORK, new ExactEvmClientScheme(privateKeyToAccount(payerKey)));
      payload = await client.createPaymentPayload({
        x402Version: 2,
        resource: {
          url: 'http://localhost/api/v1/x402/kyt/report',
          description: 'KYT compliance report',
          mimeType: 'application/json',
        },
        accepts: [requirements],
      });
    });

    test(
      'when the client builds the payment, then it is a v2 EIP-3009 authorization from the payer to ' +
        'payTo for exactly 1000000',
      () => {
        expect(payload.x402Version).toBe(2);
        expect(payload.accepted).toEqual(requirements);
        const authorization = payload.payload.authorization as { from: string; to: string; value: string };
        expect(authorization.from.toLowerCase()).toBe(payer.address.toLowerCase());
        expect(authorization.to.toLowerCase()).toBe(payTo.toLowerCase());
        expect(authorization.value).toBe('1000000');
        expect(payload.payload.signature).toMatch(/^0x[0-9a-f]{130}$/i);
      },
    );

    test(
      'when the facilitator verifies and settles it, then verify is valid, settle succeeds with a tx hash, ' +
        'and exactly 1000000 moves from payer to payTo',
      async () => {
        const payerBefore = await usdcBalance(anvil.rpcUrl, payer.address);
        const payToBefore = await usdcBalance(anvil.rpcUrl, payTo);

        const verified = await facilitator.verify(payload, requirements);
        expect(verified).toMatchObject({ isValid: true });
        expect(verified.payer?.toLowerCase()).toBe(payer.address.toLowerCase());

        const settled = await facilitator.settle(payload, requirements);
        expect(settled).toMatchObject({ success: true, network: BASE_NETWORK });
        expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/i);
        expect(settled.payer?.toLowerCase()).toBe(payer.address.toLowerCase());

        expect(await usdcBalance(anvil.rpcUrl, payer.address)).toBe(payerBefore - 1_000_000n);
        expect(await usdcBalance(anvil.rpcUrl, payTo)).toBe(payToBefore + 1_000_000n);
        const nonce = (payload.payload.authorization as { nonce: string }).nonce;
        expect(await authorizationUsed(anvil.rpcUrl, payer.address, nonce)).toBe(true);
      },
    );

    test(
      'when the same payload is settled again, then settle fails, ' +
        'verify is no longer valid, and no more money moves',
      async () => {
        const payerBefore = await usdcBalance(anvil.rpcUrl, payer.address);
        const payToBefore = await usdcBalance(anvil.rpcUrl, payTo);

        const again = await facilitator.settle(payload, requirements);
        // The facilitator's gas estimate hits the token's "authorization is used or canceled" revert:
        // nothing is broadcast.
        expect(again).toMatchObject({
          success: false,
          errorReason: 'invalid_exact_evm_nonce_already_used',
          transaction: '',
        });

        const reverified = await facilitator.verify(payload, requirements);
        expect(reverified.isValid).toBe(false);

        expect(await usdcBalance(anvil.rpcUrl, payer.address)).toBe(payerBefore);
        expect(await usdcBalance(anvil.rpcUrl, payTo)).toBe(payToBefore);
      },
    );
  });
});
