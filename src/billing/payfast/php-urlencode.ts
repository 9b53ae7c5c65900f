/**
 * PayFast computes every signature with PHP's `urlencode`, which differs from `encodeURIComponent`:
 * space becomes '+', and `! ' ( ) * ~` are percent-encoded. Only A-Z a-z 0-9 - _ . pass through, and the hex is
 * uppercase. Any difference changes the MD5, so this must match PHP byte for byte.
 */
const ENCODED_BYTE: readonly string[] = Array.from({ length: 256 }, (_, byte) => {
  const char = String.fromCharCode(byte);
  if (/^[A-Za-z0-9_.-]$/.test(char)) return char;
  if (char === ' ') return '+';
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
});

export function phpUrlencode(value: string): string {
  let encoded = '';
  // PHP works on the UTF-8 bytes of the string, so multi-byte characters become one %XX per byte.
  for (const byte of Buffer.from(value, 'utf8')) encoded += ENCODED_BYTE[byte];
  return encoded;
}
