/** Shapes of plain values every feature checks the same way. */

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string): boolean => UUID_RE.test(s);

/** A non-negative integer written as plain decimal digits (no sign, exponent, hex or spaces). */
export const DIGITS = /^\d{1,16}$/;

/** A market symbol as BASE-QUOTE (BTC-USDT): the config, the routes and the files all check it the same way. */
export const SYMBOL_PATTERN = '[A-Z0-9]{2,12}-[A-Z0-9]{2,12}';
