import { PERMIT2_ADDRESS } from '@x402/evm';
import { paymentIdentity } from '../../src/x402/payment-identity';

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const REQUIREMENTS = { scheme: 'exact', network: 'eip155:8453' as const, asset: USDC };
const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const NONCE = '0x1920c9b4b5f1e0f0a8d1c8e0b6b1e1f3a1b2c3d4e5f60718293a4b5c6d7efbe4';

const eip3009 = (authorization: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  payload: {
    signature: `0x${'ab'.repeat(64)}1b`,
    authorization: {
      from: PAYER,
      to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      value: '1000000',
      validAfter: '0',
      validBefore: '1795297658',
      nonce: NONCE,
      ...authorization,
    },
    ...extra,
  },
});

const permit2 = (authorization: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  payload: {
    signature: `0x${'cd'.repeat(64)}1c`,
    permit2Authorization: {
      from: PAYER,
      permitted: { token: USDC, amount: '1000000' },
      spender: '0x402085c248EeA27D92E8b30b2C58ed07f9E20001',
      nonce: '123456789012345678901234567890',
      deadline: '1795297658',
      witness: { to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', validAfter: '0' },
      ...authorization,
    },
    ...extra,
  },
});

describe('paymentIdentity: a payment is its nonce, on the contract that records it, for its signer', () => {
  test('an EIP-3009 authorization is (network, token, authorizer, bytes32 nonce)', () => {
    expect(paymentIdentity(eip3009({}), REQUIREMENTS)).toEqual({
      method: 'eip3009',
      network: 'eip155:8453',
      contract: USDC.toLowerCase(),
      payer: PAYER,
      nonce: NONCE,
    });
  });

  test('a Permit2 authorization is (network, Permit2, owner, uint256 nonce)', () => {
    expect(paymentIdentity(permit2({}), REQUIREMENTS)).toEqual({
      method: 'permit2',
      network: 'eip155:8453',
      contract: PERMIT2_ADDRESS.toLowerCase(),
      payer: PAYER,
      nonce: '123456789012345678901234567890',
    });
  });

  test.each([
    ['the signature encoded with yParity', eip3009({}, { signature: `0x${'ab'.repeat(64)}00` })],
    ['the authorizer lower-cased', eip3009({ from: PAYER.toLowerCase() })],
    ['the nonce in upper-case hex', eip3009({ nonce: `0x${NONCE.slice(2).toUpperCase()}` })],
    ['another recipient, amount or window (the facilitator judges those)', eip3009({ value: '2', validBefore: '9' })],
    ['fields added', eip3009({ memo: 'x' }, { extensions: { a: 1 } })],
  ])('an EIP-3009 payload with %s is the same payment', (_what, payload) => {
    expect(paymentIdentity(payload, REQUIREMENTS)).toEqual(paymentIdentity(eip3009({}), REQUIREMENTS));
  });

  test.each([
    ['the signature encoded with yParity', permit2({}, { signature: `0x${'cd'.repeat(64)}01` })],
    ['the owner lower-cased', permit2({ from: PAYER.toLowerCase() })],
    ['the nonce in hex', permit2({ nonce: `0x${123456789012345678901234567890n.toString(16)}` })],
    ['the nonce with leading zeros', permit2({ nonce: '000123456789012345678901234567890' })],
    ['fields added', permit2({ memo: 'x' }, { extensions: { a: 1 } })],
  ])('a Permit2 payload with %s is the same payment', (_what, payload) => {
    expect(paymentIdentity(payload, REQUIREMENTS)).toEqual(paymentIdentity(permit2({}), REQUIREMENTS));
  });

  test('two Permit2 payments differ by nonce, and a Permit2 and an EIP-3009 payment never collide', () => {
    const a = paymentIdentity(permit2({ nonce: '1' }), REQUIREMENTS);
    const b = paymentIdentity(permit2({ nonce: '2' }), REQUIREMENTS);
    const c = paymentIdentity(eip3009({ nonce: `0x${'0'.repeat(63)}1` }), REQUIREMENTS);
    expect(new Set([a, b, c].map((id) => JSON.stringify(id))).size).toBe(3);
  });

  test('the same authorization on another chain or token is another payment', () => {
    const base = paymentIdentity(eip3009({}), REQUIREMENTS);
    expect(paymentIdentity(eip3009({}), { ...REQUIREMENTS, network: 'eip155:84532' })).not.toEqual(base);
    expect(paymentIdentity(eip3009({}), { ...REQUIREMENTS, asset: PAYER })).not.toEqual(base);
  });

  test.each([
    ['no authorization at all', { payload: { signature: '0x00' } }],
    ['both an EIP-3009 and a Permit2 authorization', { payload: { ...eip3009({}).payload, ...permit2({}).payload } }],
    ['an EIP-3009 nonce that is not 32 bytes', eip3009({ nonce: '0x01' })],
    ['an EIP-3009 authorizer that is not an address', eip3009({ from: 'alice' })],
    ['a Permit2 nonce above 2^256 - 1', permit2({ nonce: (2n ** 256n).toString() })],
    ['a Permit2 nonce that is not a number', permit2({ nonce: '' })],
    ['a Permit2 owner missing', permit2({ from: undefined })],
    ['a payload that is not an object', { payload: 'x' as unknown as Record<string, unknown> }],
  ])('a payload with %s has no identity (refused, never claimed under a shared key)', (_what, payload) => {
    expect(paymentIdentity(payload, REQUIREMENTS)).toBeNull();
  });

  test.each([
    ['another scheme', { ...REQUIREMENTS, scheme: 'upto' }],
    ['a network that is not EVM', { ...REQUIREMENTS, network: 'solana:mainnet' as const }],
  ])('requirements of %s have no identity', (_what, requirements) => {
    expect(paymentIdentity(eip3009({}), requirements)).toBeNull();
  });
});
