import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * A real anvil node for integration tests. The platform binary is spawned directly: killing the
 * `npx anvil` wrapper leaves the real process orphaned and still listening.
 */
export interface AnvilNode {
  rpcUrl: string;
  chainId: number;
  stop(): Promise<void>;
}

/** anvil's first prefunded, unlocked account (the well-known test mnemonic). */
export const ANVIL_DEFAULT_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

const START_TIMEOUT_MS = 15_000;

function anvilBinary(): string {
  if (process.env.ANVIL_PATH) return process.env.ANVIL_PATH;
  const pkg = require.resolve('@foundry-rs/anvil-linux-amd64/package.json', {
    paths: [path.resolve(__dirname, '../..')],
  });
  return path.join(path.dirname(pkg), 'bin', 'anvil');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startAnvil(options: { chainId?: number } = {}): Promise<AnvilNode> {
  const chainId = options.chainId ?? 31337;
  const port = await freePort();
  const child = spawn(
    anvilBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--silent', '--chain-id', String(chainId)],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (spawnError || child.exitCode !== null) {
      throw new Error(
        `anvil did not start (${spawnError?.message ?? `exit code ${child.exitCode}`}); stderr: ` +
          `${stderr.trim() || '(empty)'}`,
      );
    }
    try {
      const answered = await rpc<string>(rpcUrl, 'eth_chainId', []);
      if (Number(answered) !== chainId) throw new Error(`anvil reports chain id ${answered}, expected ${chainId}`);
      break;
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('anvil reports')) {
        await kill(child, exited);
        throw err;
      }
      if (Date.now() > deadline) {
        await kill(child, exited);
        throw new Error(
          `anvil did not answer eth_chainId on ${rpcUrl} within ${START_TIMEOUT_MS} ms; stderr: ` +
            `${stderr.trim() || '(empty)'}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { rpcUrl, chainId, stop: () => kill(child, exited) };
}

async function kill(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Plain JSON-RPC over fetch, so the helpers do not depend on the client under test. */
export async function rpc<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method} failed: ${body.error.code} ${body.error.message}`);
  return body.result as T;
}

const hex = (n: bigint): string => `0x${n.toString(16)}`;

async function waitForReceipt(rpcUrl: string, hash: string): Promise<{ status: string }> {
  for (let i = 0; i < 200; i++) {
    const receipt = await rpc<{ status: string } | null>(rpcUrl, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${hash} was not mined`);
}

/** Makes `from` able to send: the default account is unlocked already, anyone else is impersonated and funded. */
async function unlock(rpcUrl: string, from: string, needWei: bigint): Promise<void> {
  if (from.toLowerCase() === ANVIL_DEFAULT_ACCOUNT) return;
  await rpc(rpcUrl, 'anvil_impersonateAccount', [from]);
  const balance = BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [from, 'latest']));
  const gasAllowance = 10n ** 18n;
  if (balance < needWei + gasAllowance) await rpc(rpcUrl, 'anvil_setBalance', [from, hex(needWei + gasAllowance)]);
}

export interface SendOptions {
  /** Explicit gas skips estimation, so a reverting call is still mined (as a failed transaction). */
  gas?: bigint;
  /** Return as soon as the node accepted the transaction (use with automine off). */
  noWait?: boolean;
}

/** Sends any transaction as `from` (default: anvil's first account); returns the hash once mined. */
export async function sendTransaction(
  args: { rpcUrl: string; from?: string; to: string; valueWei?: bigint; data?: string } & SendOptions,
): Promise<string> {
  const from = args.from ?? ANVIL_DEFAULT_ACCOUNT;
  await unlock(args.rpcUrl, from, args.valueWei ?? 0n);
  const tx: Record<string, string> = { from, to: args.to };
  if (args.valueWei) tx.value = hex(args.valueWei);
  if (args.data) tx.data = args.data;
  if (args.gas) tx.gas = hex(args.gas);
  const hash = await rpc<string>(args.rpcUrl, 'eth_sendTransaction', [tx]);
  if (!args.noWait) await waitForReceipt(args.rpcUrl, hash);
  return hash;
}

/** Sends native value; returns the hash once mined. */
export async function sendNative(
  args: { rpcUrl: string; from?: string; to: string; valueWei: bigint } & SendOptions,
): Promise<string> {
  return sendTransaction(args);
}

// ---------------------------------------------------------------------------------------------
// Test token. There is no solc here, so the runtime is hand-assembled from TOKEN_LISTING below
// (one opcode per entry, stack shown top-first in the comments; labels become JUMPDEST and label
// references become PUSH2 <offset>). Functions:
//   transfer(address,uint256)  0xa9059cbb  moves balance, emits Transfer(msg.sender, to, amount), returns true;
//                                          reverts (empty data) when the sender's balance is short
//   balanceOf(address)         0x70a08231  returns the stored balance
//   decimals()                 0x313ce567  returns 6
//   symbol()                   0x95d89b41  returns the ABI-encoded string "USDT"
//   anything else              reverts
// Storage is mapping-free: the balance of address A lives in slot A (the address as a 32-byte
// word), so tests can seed balances with anvil_setStorageAt without hashing. No overflow checks:
// it is a test fixture, not a token.
// ---------------------------------------------------------------------------------------------

export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

type Op = string | { label: string } | { ref: string };
const OPCODES: Record<string, number> = {
  STOP: 0x00,
  ADD: 0x01,
  SUB: 0x03,
  LT: 0x10,
  EQ: 0x14,
  AND: 0x16,
  SHR: 0x1c,
  CALLER: 0x33,
  CALLDATALOAD: 0x35,
  CODECOPY: 0x39,
  MSTORE: 0x52,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMPI: 0x57,
  JUMPDEST: 0x5b,
  DUP1: 0x80,
  DUP2: 0x81,
  DUP3: 0x82,
  SWAP1: 0x90,
  LOG3: 0xa3,
  RETURN: 0xf3,
  REVERT: 0xfd,
};
const MASK160 = 'ff'.repeat(20);

/** Each entry: a mnemonic, `PUSHn <hex>`, a label definition (emits JUMPDEST) or a label reference (PUSH2 offset). */
const TOKEN_LISTING: Op[] = [
  'PUSH1 00',
  'CALLDATALOAD',
  'PUSH1 e0',
  'SHR', //                     [sel]
  'DUP1',
  'PUSH4 a9059cbb',
  'EQ',
  { ref: 'transfer' },
  'JUMPI',
  'DUP1',
  'PUSH4 70a08231',
  'EQ',
  { ref: 'balanceOf' },
  'JUMPI',
  'DUP1',
  'PUSH4 313ce567',
  'EQ',
  { ref: 'decimals' },
  'JUMPI',
  'DUP1',
  'PUSH4 95d89b41',
  'EQ',
  { ref: 'symbol' },
  'JUMPI',
  { label: 'revert' },
  'PUSH1 00',
  'DUP1',
  'REVERT',

  { label: 'transfer' },
  'PUSH1 04',
  'CALLDATALOAD',
  `PUSH20 ${MASK160}`,
  'AND', //          [to]
  'PUSH1 24',
  'CALLDATALOAD', //                                        [amount, to]
  'CALLER',
  'SLOAD', //                                                 [balFrom, amount, to]
  'DUP2',
  'DUP2',
  'LT',
  { ref: 'revert' },
  'JUMPI', //                  balFrom < amount -> revert
  'SUB', //                                                             [balFrom-amount, to]   (SUB = top - second)
  'CALLER',
  'SSTORE', //                                                bal[caller] = balFrom-amount; [to]
  'PUSH1 24',
  'CALLDATALOAD', //                                        [amount, to]
  'DUP2',
  'SLOAD', //                                                   [balTo, amount, to]
  'DUP2',
  'ADD', //                                                     [balTo+amount, amount, to]
  'DUP3',
  'SSTORE', //                                                  bal[to] += amount; [amount, to]
  'PUSH1 00',
  'MSTORE', //                                              mem[0] = amount; [to]
  'CALLER',
  `PUSH32 ${TRANSFER_TOPIC.slice(2)}`,
  'PUSH1 20',
  'PUSH1 00', // [0, 32, topic, caller, to]
  'LOG3', //                                                            Transfer(caller, to, amount); []
  'PUSH1 01',
  'PUSH1 00',
  'MSTORE',
  'PUSH1 20',
  'PUSH1 00',
  'RETURN', // return true

  { label: 'balanceOf' },
  'PUSH1 04',
  'CALLDATALOAD',
  `PUSH20 ${MASK160}`,
  'AND',
  'SLOAD',
  'PUSH1 00',
  'MSTORE',
  'PUSH1 20',
  'PUSH1 00',
  'RETURN',

  { label: 'decimals' },
  'PUSH1 06',
  'PUSH1 00',
  'MSTORE',
  'PUSH1 20',
  'PUSH1 00',
  'RETURN',

  { label: 'symbol' },
  'PUSH1 20',
  'PUSH1 00',
  'MSTORE', //                                  string offset
  'PUSH1 04',
  'PUSH1 20',
  'MSTORE', //                                  length 4
  `PUSH32 ${Buffer.from('USDT').toString('hex').padEnd(64, '0')}`,
  'PUSH1 40',
  'MSTORE',
  'PUSH1 60',
  'PUSH1 00',
  'RETURN',
];

/** Two passes: label offsets first (every ref is a fixed-size PUSH2), then bytes. */
export function assemble(listing: Op[]): string {
  const size = (op: Op): number =>
    typeof op !== 'string'
      ? 'label' in op
        ? 1
        : 3
      : op.startsWith('PUSH')
        ? 1 + Number(op.split(' ')[0]!.slice(4))
        : 1;
  const labels = new Map<string, number>();
  let offset = 0;
  for (const op of listing) {
    if (typeof op !== 'string' && 'label' in op) labels.set(op.label, offset);
    offset += size(op);
  }
  let out = '';
  for (const op of listing) {
    if (typeof op !== 'string') {
      if ('label' in op) out += '5b';
      else {
        const target = labels.get(op.ref);
        if (target === undefined) throw new Error(`unknown label ${op.ref}`);
        out += `61${target.toString(16).padStart(4, '0')}`;
      }
    } else if (op.startsWith('PUSH')) {
      const [name, data] = op.split(' ') as [string, string];
      const n = Number(name.slice(4));
      if (data.length !== n * 2) throw new Error(`${op}: expected ${n} bytes`);
      out += (0x5f + n).toString(16) + data;
    } else {
      const code = OPCODES[op];
      if (code === undefined) throw new Error(`unknown opcode ${op}`);
      out += code.toString(16).padStart(2, '0');
    }
  }
  return `0x${out}`;
}

export const TOKEN_RUNTIME = assemble(TOKEN_LISTING);

/**
 * Init code: copy the runtime that follows the 13-byte prelude into memory and return it.
 *   PUSH2 len  DUP1  PUSH2 0x000d  PUSH1 0  CODECOPY  PUSH1 0  RETURN
 *   ; CODECOPY(dest 0, offset 13, len); RETURN(0, len)
 */
function tokenInitCode(): string {
  const runtime = TOKEN_RUNTIME.slice(2);
  const len = (runtime.length / 2).toString(16).padStart(4, '0');
  const prelude = assemble([`PUSH2 ${len}`, 'DUP1', 'PUSH2 000d', 'PUSH1 00', 'CODECOPY', 'PUSH1 00', 'RETURN']);
  if ((prelude.length - 2) / 2 !== 13) throw new Error('init prelude size changed; fix the CODECOPY offset');
  return prelude + runtime;
}

/** Deploys a fresh token with a real creation transaction; returns its (lower-case) address. */
export async function deployTestToken(rpcUrl: string): Promise<string> {
  const hash = await rpc<string>(rpcUrl, 'eth_sendTransaction', [
    { from: ANVIL_DEFAULT_ACCOUNT, data: tokenInitCode() },
  ]);
  await waitForReceipt(rpcUrl, hash);
  const receipt = await rpc<{ contractAddress: string }>(rpcUrl, 'eth_getTransactionReceipt', [hash]);
  return receipt.contractAddress.toLowerCase();
}

const slotOf = (address: string): string => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;

/** Seeds a balance directly in storage (the token has no mint function). */
export async function mintToken(args: { rpcUrl: string; token: string; to: string; amount: bigint }): Promise<void> {
  const current = BigInt(await rpc<string>(args.rpcUrl, 'eth_getStorageAt', [args.token, slotOf(args.to), 'latest']));
  await rpc(args.rpcUrl, 'anvil_setStorageAt', [
    args.token,
    slotOf(args.to),
    `0x${(current + args.amount).toString(16).padStart(64, '0')}`,
  ]);
}

/** Calls transfer(to, amount) as `from`; returns the hash once mined. */
export async function sendToken(
  args: { rpcUrl: string; token: string; from?: string; to: string; amount: bigint } & SendOptions,
): Promise<string> {
  const data =
    `0xa9059cbb${args.to.slice(2).toLowerCase().padStart(64, '0')}` + `${args.amount.toString(16).padStart(64, '0')}`;
  return sendTransaction({
    rpcUrl: args.rpcUrl,
    from: args.from,
    to: args.token,
    data,
    gas: args.gas,
    noWait: args.noWait,
  });
}
