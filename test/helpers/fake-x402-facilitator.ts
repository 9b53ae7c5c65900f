import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { authorizationTypes, PERMIT2_ADDRESS, permit2WitnessTypes, x402ExactPermit2ProxyAddress } from '@x402/evm';
import { isAddressEqual, recoverTypedDataAddress, type Address, type Hex } from 'viem';

/**
 * A remote x402 facilitator (X402_FACILITATOR_URL) for the exact scheme on EVM, standing in for a hosted one such
 * as CDP: it verifies both methods the scheme routes by payload shape, EIP-3009 (`authorization`) and Permit2
 * (`permit2Authorization`), by recovering the EIP-712 signer (recipient, amount, token and Permit2 spender checked),
 * and "settles" by marking the nonce used where the chain would (the token per authorizer for EIP-3009, Permit2 per
 * owner), refusing a nonce used before as the contract would. It has no chain; the tests that need a real transfer
 * use anvil and the in-process facilitator (x402-reports.test.ts).
 */
export interface FakeFacilitator {
  url: string;
  /** Settlements that moved money, in order. */
  settled: { method: 'eip3009' | 'permit2'; payer: string; nonce: string; transaction: string }[];
  stop(): Promise<void>;
}

interface Requirements {
  network: string;
  asset: string;
  amount: string;
  payTo: string;
  extra?: { name?: string; version?: string };
}

const chainIdOf = (network: string) => Number(network.replace(/^eip155:/, ''));

async function signerOf(
  payload: any,
  req: Requirements,
): Promise<{ method: 'eip3009' | 'permit2'; payer: Address; nonce: string } | string> {
  const chainId = chainIdOf(req.network);
  // Routed by shape as @x402/evm's exact facilitator does: Permit2 first.
  if (payload.permit2Authorization) {
    const p = payload.permit2Authorization;
    if (!isAddressEqual(p.witness.to, req.payTo as Address)) return 'invalid_exact_evm_recipient_mismatch';
    if (!isAddressEqual(p.spender, x402ExactPermit2ProxyAddress)) return 'invalid_permit2_spender';
    if (!isAddressEqual(p.permitted.token, req.asset as Address)) return 'invalid_permit2_token';
    if (BigInt(p.permitted.amount) < BigInt(req.amount)) return 'invalid_exact_evm_insufficient_amount';
    const signer = await recoverTypedDataAddress({
      domain: { name: 'Permit2', chainId, verifyingContract: PERMIT2_ADDRESS },
      types: permit2WitnessTypes,
      primaryType: 'PermitWitnessTransferFrom',
      message: {
        permitted: { token: p.permitted.token, amount: BigInt(p.permitted.amount) },
        spender: p.spender,
        nonce: BigInt(p.nonce),
        deadline: BigInt(p.deadline),
        witness: { to: p.witness.to, validAfter: BigInt(p.witness.validAfter) },
      },
      signature: payload.signature as Hex,
    });
    if (!isAddressEqual(signer, p.from)) return 'invalid_permit2_signature';
    return { method: 'permit2', payer: p.from, nonce: `permit2:${BigInt(p.nonce)}` };
  }
  if (payload.authorization) {
    const a = payload.authorization;
    if (!isAddressEqual(a.to, req.payTo as Address)) return 'invalid_exact_evm_recipient_mismatch';
    if (BigInt(a.value) < BigInt(req.amount)) return 'invalid_exact_evm_insufficient_amount';
    const signer = await recoverTypedDataAddress({
      domain: { name: req.extra?.name, version: req.extra?.version, chainId, verifyingContract: req.asset as Address },
      types: authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: a.from,
        to: a.to,
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce,
      },
      signature: payload.signature as Hex,
    });
    if (!isAddressEqual(signer, a.from)) return 'invalid_exact_evm_signature';
    return { method: 'eip3009', payer: a.from, nonce: `${req.asset.toLowerCase()}:${BigInt(a.nonce)}` };
  }
  return 'unsupported_payload_type';
}

async function bodyOf(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

export async function startFakeFacilitator(network = 'eip155:8453'): Promise<FakeFacilitator> {
  const settled: FakeFacilitator['settled'] = [];
  const used = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method === 'GET' && req.url === '/supported') {
        reply(200, { kinds: [{ x402Version: 2, scheme: 'exact', network }], extensions: [], signers: {} });
        return;
      }
      const { paymentPayload, paymentRequirements } = await bodyOf(req);
      const outcome = await signerOf(paymentPayload.payload, paymentRequirements).catch(
        () => 'invalid_exact_evm_signature',
      );
      if (req.url === '/verify') {
        reply(
          200,
          typeof outcome === 'string'
            ? { isValid: false, invalidReason: outcome }
            : { isValid: true, payer: outcome.payer },
        );
        return;
      }
      if (req.url === '/settle') {
        if (typeof outcome === 'string') {
          reply(200, { success: false, errorReason: outcome, transaction: '', network });
          return;
        }
        const slot = `${outcome.payer.toLowerCase()}:${outcome.nonce}`;
        if (used.has(slot)) {
          reply(200, {
            success: false,
            errorReason: 'nonce_already_used',
            transaction: '',
            network,
            payer: outcome.payer,
          });
          return;
        }
        used.add(slot);
        const transaction = `0x${randomBytes(32).toString('hex')}`;
        settled.push({ method: outcome.method, payer: outcome.payer, nonce: outcome.nonce, transaction });
        reply(200, { success: true, transaction, network, payer: outcome.payer });
        return;
      }
      reply(404, { error: 'not found' });
    } catch (err) {
      reply(500, { error: String(err) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    settled,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
