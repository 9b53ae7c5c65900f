import fs from 'node:fs';
import path from 'node:path';
import { type Abi, encodeFunctionData, type Hex } from 'viem';
import { ANVIL_DEFAULT_ACCOUNT, rpc, sendTransaction } from './anvil';

/**
 * test/fixtures/contracts/FreezeEvents.sol on an anvil node: a contract that emits Tether's and Circle's freeze
 * events on demand, compiled in-process with solc (as base-usdc.ts does) and deployed with a real creation
 * transaction.
 */
const SOURCE_PATH = path.resolve(__dirname, '../fixtures/contracts/FreezeEvents.sol');

let compiled: { abi: Abi; bytecode: Hex } | undefined;

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

function compileFreezeEvents(): { abi: Abi; bytecode: Hex } {
  if (compiled) return compiled;
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'FreezeEvents.sol': { content: fs.readFileSync(SOURCE_PATH, 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { 'FreezeEvents.sol': { FreezeEvents: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0)
    throw new Error(`FreezeEvents.sol failed to compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts?.['FreezeEvents.sol']?.FreezeEvents;
  if (!contract?.evm.bytecode.object) throw new Error('solc produced no FreezeEvents bytecode');
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}

export type FreezeCall =
  | 'addBlackList'
  | 'removeBlackList'
  | 'addThenRemoveBlackList'
  | 'destroyBlackFunds'
  | 'blacklist'
  | 'unBlacklist';

export interface FreezeEventsContract {
  /** Lower-case, as the sync is configured with it. */
  address: string;
  /** Emits the event(s) `call` names in one mined transaction; returns its hash. */
  emit(call: FreezeCall, user: string, balance?: bigint): Promise<string>;
}

async function receiptOf(rpcUrl: string, hash: string): Promise<{ contractAddress: string | null }> {
  for (let i = 0; i < 200; i++) {
    const receipt = await rpc<{ contractAddress: string | null } | null>(rpcUrl, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} was not mined`);
}

export async function deployFreezeEvents(rpcUrl: string): Promise<FreezeEventsContract> {
  const { abi, bytecode } = compileFreezeEvents();
  const hash = await rpc<string>(rpcUrl, 'eth_sendTransaction', [{ from: ANVIL_DEFAULT_ACCOUNT, data: bytecode }]);
  const { contractAddress } = await receiptOf(rpcUrl, hash);
  if (!contractAddress) throw new Error('FreezeEvents was not deployed');
  const address = contractAddress.toLowerCase();
  return {
    address,
    emit: (call, user, balance) =>
      sendTransaction({
        rpcUrl,
        to: address,
        data: encodeFunctionData({
          abi,
          functionName: call,
          args: call === 'destroyBlackFunds' ? [user, balance ?? 0n] : [user],
        }),
      }),
  };
}

/** Mines `count` empty blocks (the sync stays its confirmations behind the head). */
export async function mineBlocks(rpcUrl: string, count: number): Promise<void> {
  await rpc(rpcUrl, 'anvil_mine', [`0x${count.toString(16)}`]);
}

export async function blockNumber(rpcUrl: string): Promise<bigint> {
  return BigInt(await rpc<string>(rpcUrl, 'eth_blockNumber', []));
}
