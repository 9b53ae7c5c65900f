import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { PERMIT2_ADDRESS } from '@x402/evm';
import { getAddress } from 'viem';

/**
 * What makes a payment one payment on chain: the nonce a contract marks used for a signer on one chain. For the
 * exact scheme's EIP-3009 method (`transferWithAuthorization`) the token contract keeps `authorizationState(from,
 * nonce)`; for its Permit2 method the Permit2 contract keeps the owner's nonce bitmap (one nonce per owner across
 * every token). The payment's claim is keyed on this and nothing else, so a payload re-sent with its signature
 * encoded another way, its addresses in another letter case or fields added is the same payment, and one payment
 * buys one report.
 */
export interface PaymentIdentity {
  method: 'eip3009' | 'permit2';
  /** CAIP-2, e.g. `eip155:8453`. */
  network: string;
  /** The contract that records the nonce: the token (EIP-3009) or Permit2; lower-case. */
  contract: string;
  /** The authorizer (EIP-3009 `from`) or Permit2 owner; EIP-55 checksummed, as answers show it. */
  payer: string;
  /** EIP-3009: the bytes32 nonce, lower-case 0x + 64 hex. Permit2: the uint256 nonce in decimal. */
  nonce: string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const UINT256 = /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/;
const EVM_NETWORK = /^eip155:([1-9][0-9]{0,18})$/;

const asAddress = (value: unknown): string | null =>
  typeof value === 'string' && ADDRESS.test(value) ? getAddress(value.toLowerCase()) : null;

function asUint256(value: unknown): string | null {
  if (typeof value !== 'string' || !UINT256.test(value)) return null;
  const n = BigInt(value);
  return n < 2n ** 256n ? n.toString() : null;
}

const objectAt = (value: unknown, key: string): Record<string, unknown> | null => {
  const inner = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : null;
};

/**
 * The identity of a verified payment for the requirements it was verified against, or null when the payload is of a
 * method this service cannot key (it is then refused, never claimed under a key that other payments share). A payload
 * carrying both an EIP-3009 and a Permit2 authorization is refused too: which one a payment settlement would use is not
 * ours to guess. The method is told by the payload's shape, as the facilitator's exact EVM scheme routes it.
 */
export function paymentIdentity(
  payload: Pick<PaymentPayload, 'payload'>,
  requirements: Pick<PaymentRequirements, 'scheme' | 'network' | 'asset'>,
): PaymentIdentity | null {
  const chainId = EVM_NETWORK.exec(requirements.network)?.[1];
  const token = asAddress(requirements.asset);
  if (requirements.scheme !== 'exact' || !chainId || !token) return null;
  const network = `eip155:${chainId}`;
  const eip3009 = objectAt(payload.payload, 'authorization');
  const permit2 = objectAt(payload.payload, 'permit2Authorization');
  if (eip3009 && !permit2) {
    const payer = asAddress(eip3009.from);
    const nonce = typeof eip3009.nonce === 'string' && BYTES32.test(eip3009.nonce) ? eip3009.nonce.toLowerCase() : null;
    return payer && nonce ? { method: 'eip3009', network, contract: token.toLowerCase(), payer, nonce } : null;
  }
  if (permit2 && !eip3009) {
    const payer = asAddress(permit2.from);
    const nonce = asUint256(permit2.nonce);
    return payer && nonce
      ? { method: 'permit2', network, contract: PERMIT2_ADDRESS.toLowerCase(), payer, nonce }
      : null;
  }
  return null;
}
