import { createHash } from 'node:crypto';
import * as bitcoin from 'bitcoinjs-lib';
import { ECPairFactory, type ECPairInterface } from 'ecpair';
import * as ecc from 'tiny-secp256k1';
import { startBtcd } from '../../src/platform/dev-services/btcd';
import { btcToSats } from '../../src/screening/chains/btc-amount';

/**
 * A real btcd on regtest with wallets whose keys the test holds: every address is a fresh p2wpkh address recorded
 * under its owner, so a benchmark knows the true owner of every address it screens. Transactions are built and
 * signed with bitcoinjs-lib (Psbt) and broadcast with sendrawtransaction; the UTXOs they create are tracked here,
 * so building a thousand transactions costs no node look-ups beyond the broadcasts.
 */

const ECPair = ECPairFactory(ecc);
const NETWORK = bitcoin.networks.regtest;

/** One spendable output, as the wallets track it. */
export interface Utxo {
  txid: string;
  vout: number;
  /** Satoshis. */
  value: bigint;
  address: string;
  /** Who holds the address's key (`newAddress(owner)`); 'external' for an address no wallet made. */
  owner: string;
}

export interface Payment {
  address: string;
  /** Satoshis. */
  value: bigint;
}

export interface SpendRequest {
  /** Any mix of owners' UTXOs (a CoinJoin takes inputs from many); each is signed with its owner's key. */
  inputs: Utxo[];
  outputs: Payment[];
  /** Miner fee in satoshis; default 2 sat/vB of the transaction's estimated size. */
  fee?: bigint;
  /**
   * Where what the inputs hold beyond outputs + fee goes; default a fresh address of the first input's owner. A
   * remainder below the dust limit is left to the fee instead.
   */
  change?: string;
}

export interface SentTransaction {
  txid: string;
  /** Every output of the transaction, in order (change included), now tracked as unspent. */
  utxos: Utxo[];
}

export interface TestWallets {
  /** The owner name of the mining key (coinbase outputs and the change of `fund`). */
  readonly miner: string;
  readonly minerAddress: string;
  /** A fresh p2wpkh regtest address whose key is recorded under `owner`. */
  newAddress(owner: string): string;
  /** Who holds `address`'s key, or undefined when no wallet made it. */
  ownerOf(address: string): string | undefined;
  addressesOf(owner: string): string[];
  /** The owner's unspent outputs as tracked here (confirmed or not). */
  utxosOf(owner: string): Utxo[];
  /** Pays `sats` to `address` from the mining key's matured coinbases (change back to the miner). */
  fund(address: string, sats: bigint): Promise<Utxo>;
  /** One transaction from the mining key paying many addresses: funding a thousand addresses in a few. */
  fundMany(payments: Payment[]): Promise<SentTransaction>;
  /** Builds, signs (Psbt, each input with its owner's key), broadcasts and tracks one transaction. */
  spend(request: SpendRequest): Promise<SentTransaction>;
  /** Mines `n` blocks (to the miner address); returns their hashes. */
  mine(n?: number): Promise<string[]>;
}

export interface BitcoinNode {
  /** http://user:pass@127.0.0.1:port, for BITCOIN_RPC_URL. */
  rpcUrl: string;
  network: 'regtest';
  /** One JSON-RPC call to the node; throws on a node error (message with its code). */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  wallet: TestWallets;
  stop(): Promise<void>;
}

/** The deterministic key number `i` of `seed`: SHA-256 of "seed/i" as the private key. */
export function keyAt(seed: string, i: number): ECPairInterface {
  const secret = createHash('sha256').update(`${seed}/${i}`).digest();
  return ECPair.fromPrivateKey(new Uint8Array(secret), { network: NETWORK });
}

const p2wpkh = (key: ECPairInterface) => bitcoin.payments.p2wpkh({ pubkey: key.publicKey, network: NETWORK });

/** btcd's dust limit for a p2wpkh output at the default relay fee (an output below it is refused as non-standard). */
const DUST = 294n;
const FEE_PER_VBYTE = 2n;
/** vsize of a p2wpkh spend: 10.5 vB of overhead, 68 per input, 31 per output (rounded up). */
const estimateFee = (inputs: number, outputs: number) =>
  (11n + 68n * BigInt(inputs) + 31n * BigInt(outputs)) * FEE_PER_VBYTE;

/** Plain JSON-RPC with the URL's userinfo as Basic authorization, independent of the client under test. */
export function createRpc(rpcUrl: string) {
  const url = new URL(rpcUrl);
  const authorization = `Basic ${Buffer.from(`${url.username}:${url.password}`).toString('base64')}`;
  url.username = '';
  url.password = '';
  let id = 0;
  return async <T = unknown>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } | null };
    if (body.error) throw new Error(`${method} failed: ${body.error.code} ${body.error.message}`);
    return body.result as T;
  };
}

export function createTestWallets(seed: string, rpc: ReturnType<typeof createRpc>): TestWallets {
  const keys = new Map<string, { owner: string; key: ECPairInterface; script: Uint8Array }>();
  const byOwner = new Map<string, string[]>();
  /** Unspent outputs by "txid:vout", with the length of the unconfirmed chain behind each (0 once mined). */
  const unspent = new Map<string, Utxo & { depth: number }>();
  let nextKey = 0;

  const newAddress = (owner: string): string => {
    const key = keyAt(seed, nextKey++);
    const payment = p2wpkh(key);
    const address = payment.address as string;
    keys.set(address, { owner, key, script: payment.output as Uint8Array });
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), address]);
    return address;
  };
  const miner = 'miner';
  const minerAddress = newAddress(miner);

  /** `change` is asked for only when there is a remainder above dust to pay it. */
  async function broadcast(request: { inputs: Utxo[]; outputs: Payment[]; fee: bigint; change: () => string }) {
    const { inputs, outputs, fee } = request;
    const paid = outputs.reduce((sum, o) => sum + o.value, 0n);
    const held = inputs.reduce((sum, i) => sum + i.value, 0n);
    const remainder = held - paid - fee;
    if (remainder < 0n) throw new Error(`inputs hold ${held} sats, outputs and fee need ${paid + fee}`);
    const all = remainder >= DUST ? [...outputs, { address: request.change(), value: remainder }] : outputs;
    const psbt = new bitcoin.Psbt({ network: NETWORK });
    for (const input of inputs) {
      const known = keys.get(input.address);
      if (!known) throw new Error(`no key for ${input.address}: only wallet addresses can be spent`);
      psbt.addInput({ hash: input.txid, index: input.vout, witnessUtxo: { script: known.script, value: input.value } });
    }
    for (const output of all) psbt.addOutput({ address: output.address, value: output.value });
    for (const [i, input] of inputs.entries())
      psbt.signInput(i, (keys.get(input.address) as { key: ECPairInterface }).key);
    psbt.finalizeAllInputs();
    const tx = psbt.extractTransaction();
    const txid = tx.getId();
    // Taken before the broadcast, so concurrent spends never pick the same output.
    let depth = 0;
    for (const input of inputs) {
      depth = Math.max(depth, unspent.get(`${input.txid}:${input.vout}`)?.depth ?? 0);
      unspent.delete(`${input.txid}:${input.vout}`);
    }
    await rpc<string>('sendrawtransaction', [tx.toHex()]);
    const utxos = all.map((o, vout) => ({
      txid,
      vout,
      value: o.value,
      address: o.address,
      owner: keys.get(o.address)?.owner ?? 'external',
    }));
    for (const utxo of utxos) unspent.set(`${txid}:${utxo.vout}`, { ...utxo, depth: depth + 1 });
    return { txid, utxos };
  }

  /** The miner's outputs covering `need`, shortest unconfirmed chains first (btcd takes long chains badly). */
  function minerCoins(need: bigint): Utxo[] {
    const coins = [...unspent.values()]
      .filter((u) => u.owner === miner)
      .sort((a, b) => a.depth - b.depth || (b.value > a.value ? 1 : b.value < a.value ? -1 : 0));
    const chosen: Utxo[] = [];
    let sum = 0n;
    for (const coin of coins) {
      if (sum >= need) break;
      chosen.push(coin);
      sum += coin.value;
    }
    if (sum < need) throw new Error(`the miner holds less than ${need} sats in matured coins`);
    return chosen;
  }

  const wallets: TestWallets & { addCoinbase(utxo: Utxo): void } = {
    miner,
    minerAddress,
    newAddress,
    ownerOf: (address) => keys.get(address)?.owner,
    addressesOf: (owner) => [...(byOwner.get(owner) ?? [])],
    utxosOf: (owner) =>
      [...unspent.values()].filter((u) => u.owner === owner).map(({ depth: _depth, ...utxo }) => utxo),
    async fundMany(payments) {
      const paid = payments.reduce((sum, p) => sum + p.value, 0n);
      // Two coins at most in practice (a coinbase is 12.5 to 50 BTC); the fee is sized for up to four.
      const fee = estimateFee(4, payments.length + 1);
      return broadcast({ inputs: minerCoins(paid + fee), outputs: payments, fee, change: () => minerAddress });
    },
    async fund(address, sats) {
      const { utxos } = await wallets.fundMany([{ address, value: sats }]);
      return utxos[0] as Utxo;
    },
    async spend({ inputs, outputs, fee, change }) {
      if (inputs.length === 0) throw new Error('a transaction needs inputs');
      return broadcast({
        inputs,
        outputs,
        fee: fee ?? estimateFee(inputs.length, outputs.length + 1),
        change: () => change ?? newAddress((inputs[0] as Utxo).owner),
      });
    },
    async mine(n = 1) {
      const hashes = await rpc<string[]>('generate', [n]);
      for (const utxo of unspent.values()) utxo.depth = 0;
      return hashes;
    },
    addCoinbase(utxo) {
      unspent.set(`${utxo.txid}:${utxo.vout}`, { ...utxo, depth: 0 });
    },
  };
  return wallets;
}

/**
 * btcd activates segwit on regtest by BIP9 signalling: three windows of 144 blocks (defined, started, locked in).
 * Mining that many also matures every coinbase but the last 100.
 */
const SEGWIT_ACTIVE_HEIGHT = 432;
const COINBASE_MATURITY = 100;

interface SearchedTx {
  txid: string;
  confirmations?: number;
  vin: { coinbase?: string }[];
  vout: { value: number; n: number; scriptPubKey: { address?: string } }[];
}

/**
 * Starts btcd on regtest mining to a key this helper holds, mines until segwit is active (and so coinbases are
 * mature), and loads the matured coinbase outputs into the miner's wallet. About a second.
 */
export async function startBitcoinNode(options: { seed?: string } = {}): Promise<BitcoinNode> {
  const seed = options.seed ?? 'chainscreen-btcd-test';
  // The mining address is the wallets' first key: derived before the node exists, and the same for any rpc.
  const miningAddress = p2wpkh(keyAt(seed, 0)).address as string;
  const node = await startBtcd({ network: 'regtest', miningAddress });
  try {
    const rpc = createRpc(node.rpcUrl);
    const wallet = createTestWallets(seed, rpc) as ReturnType<typeof createTestWallets> & {
      addCoinbase(utxo: Utxo): void;
    };
    if (wallet.minerAddress !== miningAddress) throw new Error('the wallets did not start at key 0');
    await rpc('generate', [SEGWIT_ACTIVE_HEIGHT]);
    const coinbases = await rpc<SearchedTx[]>('searchrawtransactions', [
      miningAddress,
      1,
      0,
      SEGWIT_ACTIVE_HEIGHT,
      0,
      false,
    ]);
    for (const tx of coinbases) {
      const output = tx.vout[0];
      if (!tx.vin[0]?.coinbase || !output || (tx.confirmations ?? 0) < COINBASE_MATURITY) continue;
      wallet.addCoinbase({
        txid: tx.txid,
        vout: output.n,
        value: btcToSats(output.value),
        address: miningAddress,
        owner: wallet.miner,
      });
    }
    return { rpcUrl: node.rpcUrl, network: 'regtest', rpc, wallet, stop: node.stop };
  } catch (err) {
    await node.stop();
    throw err;
  }
}
