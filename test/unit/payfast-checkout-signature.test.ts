import { createHash } from 'node:crypto';
import { CHECKOUT_FIELD_ORDER, signCheckoutFields } from '../../src/billing/payfast/checkout-signature';

function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

describe('signCheckoutFields', () => {
  test(
    'when given the payfast-php-sdk published vector in ' + "shuffled order, then it reproduces PayFast's signature",
    () => {
      // Arrange: Payfast/payfast-php-sdk tests/unit/AuthTest.php, testGenerateSignatureOrdering — the SDK shuffles
      // these fields and expects 3441682c5d8a65486f5b7cc8ce41d146 with passphrase 'payfastsandbox'. The custom_str
      // values are the test's rtrim(base64_encode(...), '=') results; cycles=0 is included by the SDK.
      const fields = {
        merchant_id: '10028084',
        merchant_key: '4hjoenwbwnuso',
        subscription_type: '1',
        m_payment_id: '5',
        amount: '5.00',
        recurring_amount: '5',
        billing_date: '2023-01-01',
        frequency: '3',
        cycles: '0',
        custom_str1: 'U29tZSBUZXN0IFN0cmluZw',
        custom_int1: '1',
        custom_int2: '1',
        custom_str2: 'QW5vdGhlciBUZXN0IFN0cmluZw',
        item_name: 'Test',
        name_last: 'Test',
        name_first: 'Test',
        email_address: 'test@test.com',
        confirmation_address: 'test@test.test',
        email_confirmation: '1',
        return_url: 'https://test.com/billing/success',
        cancel_url: 'https://test.com/billing/cancel',
        notify_url: 'https://test.com/payfast/webhook',
      };

      // Act
      const signed = signCheckoutFields(fields, 'payfastsandbox');

      // Assert
      expect(signed.signature).toBe('3441682c5d8a65486f5b7cc8ce41d146');
      expect(signed.fields.map(([name]) => name)).toEqual([
        'merchant_id',
        'merchant_key',
        'return_url',
        'cancel_url',
        'notify_url',
        'name_first',
        'name_last',
        'email_address',
        'm_payment_id',
        'amount',
        'item_name',
        'custom_int1',
        'custom_int2',
        'custom_str1',
        'custom_str2',
        'email_confirmation',
        'confirmation_address',
        'subscription_type',
        'billing_date',
        'recurring_amount',
        'frequency',
        'cycles',
      ]);
    },
  );

  test(
    'when fields include blanks, padding and special characters, ' +
      'then the hand-computed documented string is signed',
    () => {
      // Arrange: documented algorithm — documented order, blanks skipped, values trimmed, PHP
      // urlencode, then passphrase.
      const fields = {
        item_name: 'Pro Plan (monthly)',
        custom_str2: '',
        amount: '199.00',
        email_address: 'test+payfast@example.com',
        name_first: '  Test ',
        custom_str1: 'user_29w83sxmDNGwOuEthce5gg56FcC',
        item_description: undefined,
        name_last: '   ',
        merchant_key: '46f0cd694581a',
        notify_url: 'https://api.example.com/api/v1/billing/payfast/webhook',
        merchant_id: '10000100',
      };
      const expectedString =
        'merchant_id=10000100&merchant_key=46f0cd694581a' +
        '&notify_url=https%3A%2F%2Fapi.example.com%2Fapi%2Fv1%2Fbilling%2Fpayfast%2Fwebhook' +
        '&name_first=Test&email_address=test%2Bpayfast%40example.com&amount=199.00' +
        '&item_name=Pro+Plan+%28monthly%29&custom_str1=user_29w83sxmDNGwOuEthce5gg56FcC' +
        '&passphrase=jt7NOE43FZPn';

      // Act
      const signed = signCheckoutFields(fields, 'jt7NOE43FZPn');

      // Assert
      expect(signed.signature).toBe(md5Hex(expectedString));
      expect(signed.fields).toEqual([
        ['merchant_id', '10000100'],
        ['merchant_key', '46f0cd694581a'],
        ['notify_url', 'https://api.example.com/api/v1/billing/payfast/webhook'],
        ['name_first', 'Test'],
        ['email_address', 'test+payfast@example.com'],
        ['amount', '199.00'],
        ['item_name', 'Pro Plan (monthly)'],
        ['custom_str1', 'user_29w83sxmDNGwOuEthce5gg56FcC'],
      ]);
    },
  );

  test('when no passphrase is set, then the string is signed without a passphrase pair', () => {
    // Arrange
    const fields = { merchant_id: '10000100', merchant_key: '46f0cd694581a', amount: '10.00', item_name: 'Order#123' };

    // Act
    const withoutUndefined = signCheckoutFields(fields, undefined);
    const withoutEmpty = signCheckoutFields(fields, '');

    // Assert
    const expected = md5Hex('merchant_id=10000100&merchant_key=46f0cd694581a&amount=10.00&item_name=Order%23123');
    expect(withoutUndefined.signature).toBe(expected);
    expect(withoutEmpty.signature).toBe(expected);
    expect(signCheckoutFields(fields, 'jt7NOE43FZPn').signature).not.toBe(expected);
  });

  test('when the same fields are given in a different object order, then fields and signature are identical', () => {
    // Arrange
    const forward = { merchant_id: '10000100', amount: '99.00', item_name: 'Basic', name_first: 'Ann' };
    const backward = { name_first: 'Ann', item_name: 'Basic', amount: '99.00', merchant_id: '10000100' };

    // Act
    const a = signCheckoutFields(forward, 'jt7NOE43FZPn');
    const b = signCheckoutFields(backward, 'jt7NOE43FZPn');

    // Assert
    expect(b).toEqual(a);
    expect(a.fields.map(([name]) => name)).toEqual(['merchant_id', 'name_first', 'amount', 'item_name']);
  });

  test.each(['notify', 'signature', 'passphrase', 'Merchant_id'])(
    'when an unknown field %j is given, then it throws',
    (name) => {
      // Arrange
      const fields = { merchant_id: '10000100', [name]: 'x' };

      // Act
      const sign = () => signCheckoutFields(fields, 'jt7NOE43FZPn');

      // Assert
      expect(sign).toThrow(name);
    },
  );

  test(
    'when the documented order is read, then it starts with the merchant fields and ends with the ' +
      'subscription notifications',
    () => {
      // Assert
      expect(CHECKOUT_FIELD_ORDER).toHaveLength(34);
      expect(new Set(CHECKOUT_FIELD_ORDER).size).toBe(CHECKOUT_FIELD_ORDER.length);
      expect(CHECKOUT_FIELD_ORDER.slice(0, 5)).toEqual([
        'merchant_id',
        'merchant_key',
        'return_url',
        'cancel_url',
        'notify_url',
      ]);
      expect(CHECKOUT_FIELD_ORDER.slice(-3)).toEqual([
        'subscription_notify_email',
        'subscription_notify_webhook',
        'subscription_notify_buyer',
      ]);
      expect(Object.isFrozen(CHECKOUT_FIELD_ORDER)).toBe(true);
    },
  );
});
