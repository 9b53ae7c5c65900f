import { x402Facilitator } from '@x402/core/facilitator';
import { HTTPFacilitatorClient } from '@x402/core/server';
import type { FacilitatorClient } from '@x402/core/server';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, http, publicActions, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { X402_NETWORK } from './constants';

/**
 * The facilitator that verifies and settles payments: a remote one by URL (e.g. CDP), or one in
 * this process that submits transferWithAuthorization itself on an RPC with a funded key (it pays
 * the gas; it cannot change the signed recipient or amount). Null when neither is configured.
 */
export function buildFacilitator(config: {
  url?: string;
  rpcUrl?: string;
  privateKey?: string;
}): FacilitatorClient | null {
  if (config.url) return new HTTPFacilitatorClient({ url: config.url });
  if (!config.rpcUrl || !config.privateKey) return null;
  const account = privateKeyToAccount(config.privateKey as Hex);
  const wallet = createWalletClient({ account, chain: base, transport: http(config.rpcUrl) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      getCode: (a) => wallet.getCode(a),
      readContract: (a) => wallet.readContract({ ...a, args: a.args ?? [] }),
      verifyTypedData: (a) => wallet.verifyTypedData(a as Parameters<typeof wallet.verifyTypedData>[0]),
      writeContract: (a) => wallet.writeContract({ ...a, args: a.args ?? [] }),
      sendTransaction: (a) => wallet.sendTransaction(a),
      waitForTransactionReceipt: (a) => wallet.waitForTransactionReceipt(a),
    },
    { confirmationTimeoutMs: 60_000 },
  );
  const facilitator = new x402Facilitator().register(X402_NETWORK, new ExactEvmFacilitatorScheme(signer));
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // x402Facilitator types its networks as plain strings; they are CAIP-2 ids here.
    getSupported: async () =>
      facilitator.getSupported() as unknown as Awaited<ReturnType<FacilitatorClient['getSupported']>>,
  } as FacilitatorClient;
}
