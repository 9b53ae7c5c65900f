const DECIMAL = /^(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A node's BTC amount (JSON-RPC answers BTC as a decimal number: 0.0001, 6.25, 1e-08) in satoshis, by decimal
 * string arithmetic: `value * 1e8` in floating point is off by one satoshi for many amounts. A number is read through
 * its shortest round-trip text, which is the node's own text for every amount it can print (below 2^53 satoshis).
 * Throws on a negative amount or one finer than a satoshi: neither is a bitcoin output value.
 */
export function btcToSats(value: number | string): bigint {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`not a BTC amount: ${text}`);
  const [, whole, fraction = '', exponent = '0'] = match;
  // digits × 10^(scale) BTC, so digits × 10^(scale + 8) satoshis.
  const digits = BigInt(`${whole}${fraction}`);
  const shift = Number(exponent) - fraction.length + 8;
  if (shift >= 0) return digits * 10n ** BigInt(shift);
  const unit = 10n ** BigInt(-shift);
  if (digits % unit !== 0n) throw new RangeError(`BTC amount finer than a satoshi: ${text}`);
  return digits / unit;
}
