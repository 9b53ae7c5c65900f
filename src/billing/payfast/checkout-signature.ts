import { createHash } from 'node:crypto';
import { phpUrlencode } from './php-urlencode';

/**
 * The order PayFast's docs give for the checkout (redirect form) fields. PayFast signs the form in this order, not
 * in the order the form posts them, so the signature must be built in this order too.
 */
export const CHECKOUT_FIELD_ORDER: readonly string[] = Object.freeze([
  'merchant_id',
  'merchant_key',
  'return_url',
  'cancel_url',
  'notify_url',
  'name_first',
  'name_last',
  'email_address',
  'cell_number',
  'm_payment_id',
  'amount',
  'item_name',
  'item_description',
  'custom_int1',
  'custom_int2',
  'custom_int3',
  'custom_int4',
  'custom_int5',
  'custom_str1',
  'custom_str2',
  'custom_str3',
  'custom_str4',
  'custom_str5',
  'email_confirmation',
  'confirmation_address',
  'payment_method',
  'subscription_type',
  'billing_date',
  'recurring_amount',
  'frequency',
  'cycles',
  'subscription_notify_email',
  'subscription_notify_webhook',
  'subscription_notify_buyer',
]);

const KNOWN_FIELDS: ReadonlySet<string> = new Set(CHECKOUT_FIELD_ORDER);

// PHP's trim() character set; JS String#trim also strips Unicode spaces, which PayFast's PHP side would keep.
// biome-ignore lint/suspicious/noControlCharactersInRegex: PHP's trim() strips NUL and vertical tab; so must we.
const PHP_TRIM = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;

/**
 * Signs a checkout form. Unlike the ITN signature, blank fields are left out and values are trimmed. The returned
 * fields are the trimmed, non-blank ones in documented order: post exactly those (plus `signature`) so the form
 * PayFast receives is the one that was signed. "0" is a value, not a blank (cycles=0 means "until cancelled").
 * Unknown names throw rather than being silently unsigned; that also keeps `signature` and `passphrase` out.
 */
export function signCheckoutFields(
  fields: Record<string, string | undefined>,
  passphrase: string | undefined,
): { fields: Array<[string, string]>; signature: string } {
  const unknown = Object.keys(fields).filter((name) => !KNOWN_FIELDS.has(name));
  if (unknown.length > 0) throw new Error(`unknown PayFast checkout field(s): ${unknown.join(', ')}`);

  const signedFields: Array<[string, string]> = [];
  for (const name of CHECKOUT_FIELD_ORDER) {
    const value = fields[name]?.replace(PHP_TRIM, '');
    if (value) signedFields.push([name, value]);
  }

  const parts = signedFields.map(([name, value]) => `${name}=${phpUrlencode(value)}`);
  if (passphrase) parts.push(`passphrase=${phpUrlencode(passphrase)}`);
  const signature = createHash('md5').update(parts.join('&'), 'utf8').digest('hex');
  return { fields: signedFields, signature };
}
