import fs from 'node:fs';
import path from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Abi,
  type Address,
  type Chain,
  type Hex,
} from 'viem';
import { ANVIL_DEFAULT_ACCOUNT, rpc } from './anvil';

/**
 * A USDC stand-in at the real Base USDC address on a local anvil node (chain id 8453), so the x402
 * `exact` EVM scheme (EIP-3009 transferWithAuthorization, domain "USD Coin"/"2") runs unchanged.
 * The contract is test/fixtures/contracts/MockUSDC.sol, compiled in-process with solc.
 */

/** Base mainnet USDC (checksummed). */
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' as const;
/** CAIP-2 id of Base mainnet. */
export const BASE_NETWORK = 'eip155:8453' as const;

const SOURCE_PATH = path.resolve(__dirname, '../fixtures/contracts/MockUSDC.sol');

let compiled: { abi: Abi; runtimeBytecode: Hex } | undefined;

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts?: Record<string, Record<string, { abi: Abi; evm: { deployedBytecode: { object: string } } }>>;
}

/** Compiles MockUSDC.sol with the bundled solc (wasm, in-process); cached for the process. */
export function compileMockUsdc(): { abi: Abi; runtimeBytecode: Hex } {
  if (compiled) return compiled;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'MockUSDC.sol': { content: fs.readFileSync(SOURCE_PATH, 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { 'MockUSDC.sol': { MockUSDC: ['abi', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0)
    throw new Error(`MockUSDC.sol failed to compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts?.['MockUSDC.sol']?.MockUSDC;
  if (!contract?.evm.deployedBytecode.object) throw new Error('solc produced no MockUSDC runtime bytecode');
  compiled = { abi: contract.abi, runtimeBytecode: `0x${contract.evm.deployedBytecode.object}` };
  return compiled;
}

/** A viem chain for an anvil node standing in for Base (chain id 8453 unless told otherwise). */
export function anvilBaseChain(rpcUrl: string, chainId = 8453): Chain {
  return defineChain({
    id: chainId,
    name: `anvil ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

async function chainOf(rpcUrl: string): Promise<Chain> {
  return anvilBaseChain(rpcUrl, Number(await rpc<string>(rpcUrl, 'eth_chainId', [])));
}

/** Places the MockUSDC runtime at BASE_USDC (anvil_setCode; no constructor, no storage). */
export async function installBaseUsdc(rpcUrl: string): Promise<void> {
  const { runtimeBytecode } = compileMockUsdc();
  await rpc(rpcUrl, 'anvil_setCode', [BASE_USDC, runtimeBytecode]);
}

/** Mints `amount` (6-decimal units) to `to`, sent from anvil's default unlocked account; returns the mined tx hash. */
export async function mintUsdc(rpcUrl: string, to: string, amount: bigint): Promise<Hex> {
  const chain = await chainOf(rpcUrl);
  const { abi } = compileMockUsdc();
  const wallet = createWalletClient({ account: ANVIL_DEFAULT_ACCOUNT as Address, chain, transport: http(rpcUrl) });
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) });
  const hash = await wallet.writeContract({
    address: BASE_USDC,
    abi,
    functionName: 'mint',
    args: [to as Address, amount],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`mint(${to}, ${amount}) reverted in ${hash}`);
  return hash;
}

/** balanceOf(address) at BASE_USDC. */
export async function usdcBalance(rpcUrl: string, address: string): Promise<bigint> {
  const publicClient = createPublicClient({ transport: http(rpcUrl) });
  const { abi } = compileMockUsdc();
  return (await publicClient.readContract({
    address: BASE_USDC,
    abi,
    functionName: 'balanceOf',
    args: [address as Address],
  })) as bigint;
}

/** EIP-3009 authorizationState(from, nonce) at BASE_USDC: true once used or canceled. */
export async function authorizationUsed(rpcUrl: string, from: string, nonce: string): Promise<boolean> {
  const publicClient = createPublicClient({ transport: http(rpcUrl) });
  const { abi } = compileMockUsdc();
  return (await publicClient.readContract({
    address: BASE_USDC,
    abi,
    functionName: 'authorizationState',
    args: [from as Address, nonce as Hex],
  })) as boolean;
}
