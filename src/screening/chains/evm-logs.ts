import { decodeAbiParameters, hexToString, type Hex } from 'viem';

/** keccak256("Transfer(address,address,uint256)"); ERC-721 shares it, so the shape check below matters. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  logIndex?: string | null;
}

export interface DecodedTransfer {
  token: string;
  /** null for a mint (sent from the zero address). */
  from: string | null;
  /** null for a burn (sent to the zero address). */
  to: string | null;
  amount: bigint;
  logIndex: number;
}

/** A topic holds an address only if its upper 12 bytes are zero; anything else is not an ERC-20 Transfer. */
function topicAddress(topic: string): string | undefined {
  const match = /^0x0{24}([0-9a-fA-F]{40})$/.exec(topic);
  return match ? `0x${match[1]!.toLowerCase()}` : undefined;
}

/**
 * ERC-20 Transfer logs only: ERC-721 emits the same topic0 with the token id as a fourth topic and
 * no data, so requiring three topics and one 32-byte word keeps NFTs from being read as amounts.
 */
export function decodeTransferLogs(logs: readonly RpcLog[]): DecodedTransfer[] {
  const transfers: DecodedTransfer[] = [];
  for (const [position, log] of logs.entries()) {
    if (log.topics.length !== 3 || log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC) continue;
    if (!/^0x[0-9a-fA-F]{64}$/.test(log.data)) continue;
    const from = topicAddress(log.topics[1]!);
    const to = topicAddress(log.topics[2]!);
    if (!from || !to) continue;
    transfers.push({
      token: log.address.toLowerCase(),
      from: from === ZERO_ADDRESS ? null : from,
      to: to === ZERO_ADDRESS ? null : to,
      amount: BigInt(log.data),
      logIndex: log.logIndex ? Number(log.logIndex) : position,
    });
  }
  return transfers;
}

export const ERC20_SELECTORS = { symbol: '0x95d89b41', decimals: '0x313ce567', balanceOf: '0x70a08231' } as const;

export function balanceOfCallData(owner: string): string {
  return `${ERC20_SELECTORS.balanceOf}${owner.slice(2).toLowerCase().padStart(64, '0')}`;
}

/** One uint256 word, or null when the contract answered with something else (non-standard or not a token). */
export function decodeUint(data: string): bigint | null {
  return /^0x[0-9a-fA-F]{64}$/.test(data) ? BigInt(data) : null;
}

export function decodeDecimals(data: string): number | null {
  const value = decodeUint(data);
  return value !== null && value <= 255n ? Number(value) : null;
}

/**
 * ABI string, or the bytes32 that early tokens (MKR, SAI) return. NULs are stripped because Postgres
 * text rejects them, and the length is capped because the value is attacker-controlled.
 */
export function decodeSymbol(data: string): string | null {
  let text: string;
  try {
    text =
      data.length === 66
        ? hexToString(data as Hex, { size: 32 })
        : decodeAbiParameters([{ type: 'string' }], data as Hex)[0];
  } catch {
    return null;
  }
  // A token may name itself with NULs; Postgres cannot store them.
  const clean = text.replaceAll('\u0000', '').trim().slice(0, 32);
  return clean.length > 0 ? clean : null;
}
