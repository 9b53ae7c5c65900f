import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ItnFormatError } from '../../src/billing/payfast/errors';
import { itnParamStringForValidation, parseItn, verifyItnSignature } from '../../src/billing/payfast/itn';
import { phpUrlencode } from '../../src/billing/payfast/php-urlencode';

const FIXTURES = path.join(__dirname, '../fixtures/webhooks/payfast');

interface RealExpected {
  passphrase: string;
  signature: string;
  param_string_signed: string;
  verifies: boolean;
}

interface EventsManifest {
  passphrase: string;
  events: Record<
    string,
    { signature: string; param_string_signed: string; docs_node_snippet_encoding_gives_same_sig: boolean }
  >;
}

function readBody(relative: string): Buffer {
  return readFileSync(path.join(FIXTURES, relative));
}

function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/** What a PHP receiver hashes: the pairs except signature, PHP-urlencoded in received order, plus the passphrase. */
function phpSignedString(body: Buffer | string, passphrase: string): string {
  const params = parseItn(body)
    .pairs.filter(([key]) => key !== 'signature')
    .map(([key, value]) => `${key}=${phpUrlencode(value)}`);
  return [...params, `passphrase=${phpUrlencode(passphrase)}`].join('&');
}

/** Replaces (or, with value null, removes) one `name=value` segment of a raw body, failing loudly if absent. */
function editSegment(body: string, name: string, value: string | null): string {
  const segments = body.split('&');
  const index = segments.findIndex((segment) => segment.startsWith(`${name}=`));
  if (index === -1) throw new Error(`fixture has no ${name}`);
  if (value === null) segments.splice(index, 1);
  else segments[index] = `${name}=${value}`;
  return segments.join('&');
}

const realNames = readdirSync(path.join(FIXTURES, 'real'))
  .filter((file) => file.endsWith('.form.txt'))
  .map((file) => file.slice(0, -'.form.txt'.length))
  .sort();
const manifest = JSON.parse(readFileSync(path.join(FIXTURES, 'events/_manifest.json'), 'utf8')) as EventsManifest;
const eventNames = Object.keys(manifest.events).sort();
const EVENTS_PASSPHRASE = 'jt7NOE43FZPn';

describe('phpUrlencode', () => {
  test.each([
    ['', ''],
    ['AZaz09-_.', 'AZaz09-_.'],
    ['a b', 'a+b'],
    ['a+b', 'a%2Bb'],
    ["!'()*~", '%21%27%28%29%2A%7E'],
    ['a@b.com/x?y=1&z', 'a%40b.com%2Fx%3Fy%3D1%26z'],
    ['50%', '50%25'],
    ['Café', 'Caf%C3%A9'],
    ['—', '%E2%80%94'],
    ['😀', '%F0%9F%98%80'],
    ['\n\t', '%0A%09'],
  ])('when encoding %j, then it gives PHP urlencode output %j', (input, expected) => {
    // Act
    const encoded = phpUrlencode(input);

    // Assert
    expect(encoded).toBe(expected);
  });
});

describe('verifyItnSignature on real PayFast ITNs', () => {
  test('when the fixture folder is read, then all three real ITNs are present', () => {
    // Assert
    expect(realNames).toEqual([
      'live_COMPLETE_passphrase_non-ascii',
      'php-sdk-test_COMPLETE_no-passphrase',
      'sandbox_subscription_COMPLETE_token_billing_date',
    ]);
  });

  test.each(realNames)('when %s is checked with its own passphrase, then it verifies', (name) => {
    // Arrange
    const body = readBody(`real/${name}.form.txt`);
    const expected = JSON.parse(
      readFileSync(path.join(FIXTURES, `real/${name}.expected.json`), 'utf8'),
    ) as RealExpected;
    const passphrase = expected.passphrase === '' ? undefined : expected.passphrase;

    // Act
    const verified = verifyItnSignature(body, passphrase);
    const parsed = parseItn(body);

    // Assert
    expect(expected.verifies).toBe(true);
    expect(verified).toBe(true);
    expect(parsed.signature).toBe(expected.signature);
    const signed = passphrase
      ? `${parsed.signedParamString}&passphrase=${phpUrlencode(passphrase)}`
      : parsed.signedParamString;
    expect(signed).toBe(expected.param_string_signed);
    expect(md5Hex(expected.param_string_signed)).toBe(expected.signature);
  });

  test('when the no-passphrase ITN is checked with a passphrase configured, then it is rejected', () => {
    // Arrange
    const body = readBody('real/php-sdk-test_COMPLETE_no-passphrase.form.txt');

    // Act
    const verified = verifyItnSignature(body, 'jt7NOE43FZPn');

    // Assert
    expect(verified).toBe(false);
  });

  test('when the live ITN is checked without its passphrase, then it is rejected', () => {
    // Arrange
    const body = readBody('real/live_COMPLETE_passphrase_non-ascii.form.txt');

    // Act
    const verified = verifyItnSignature(body, undefined);

    // Assert
    expect(verified).toBe(false);
  });
});

describe('verifyItnSignature on the app-shaped events', () => {
  test('when the manifest is read, then it names the five events and the sandbox passphrase', () => {
    // Assert
    expect(manifest.passphrase).toBe(EVENTS_PASSPHRASE);
    expect(eventNames).toEqual([
      'CANCELLED_subscription',
      'COMPLETE_initial',
      'COMPLETE_recurring',
      'COMPLETE_special-chars_in_item_name',
      'FAILED_recurring',
    ]);
  });

  test.each(eventNames)('when %s is checked with the sandbox passphrase, then it verifies', (name) => {
    // Arrange
    const body = readBody(`events/${name}.form.txt`);

    // Act
    const verified = verifyItnSignature(body, EVENTS_PASSPHRASE);

    // Assert
    expect(verified).toBe(true);
    expect(parseItn(body).signature).toBe(manifest.events[name]?.signature);
  });

  test.each(eventNames)(
    'when %s is re-encoded with phpUrlencode, then it reproduces the manifest signed string',
    (name) => {
      // Arrange
      const body = readBody(`events/${name}.form.txt`);
      const event = manifest.events[name];

      // Act
      const signed = phpSignedString(body, EVENTS_PASSPHRASE);

      // Assert
      expect(signed).toBe(event?.param_string_signed);
      expect(md5Hex(signed)).toBe(event?.signature);
    },
  );

  test("when the special-characters item name is encoded, then ( ) ' ! * ~ and UTF-8 match PHP", () => {
    // Arrange
    const fields = parseItn(readBody('events/COMPLETE_special-chars_in_item_name.form.txt')).fields;

    // Act
    const itemName = phpUrlencode(fields.item_name ?? '');
    const itemDescription = phpUrlencode(fields.item_description ?? '');

    // Assert
    expect(fields.item_name).toBe("O'Brien's Plan (annual) ~ 50% off! *promo*");
    expect(itemName).toBe('O%27Brien%27s+Plan+%28annual%29+%7E+50%25+off%21+%2Apromo%2A');
    expect(fields.item_description).toBe('Café & Crème — 12 months');
    expect(itemDescription).toBe('Caf%C3%A9+%26+Cr%C3%A8me+%E2%80%94+12+months');
  });
});

describe('verifyItnSignature rejections', () => {
  const initial = readBody('events/COMPLETE_initial.form.txt').toString('utf8');

  test('when the passphrase is wrong, then it is rejected', () => {
    // Act
    const verified = verifyItnSignature(initial, 'jt7NOE43FZPm');

    // Assert
    expect(verified).toBe(false);
  });

  test.each([undefined, ''])(
    'when no passphrase (%j) is given for an ITN signed with one, then it is rejected',
    (passphrase) => {
      // Act
      const verified = verifyItnSignature(initial, passphrase);

      // Assert
      expect(verified).toBe(false);
    },
  );

  test('when amount_gross is tampered from 199.00 to 1.00, then it is rejected', () => {
    // Arrange
    const tampered = editSegment(initial, 'amount_gross', '1.00');

    // Act
    const verified = verifyItnSignature(tampered, EVENTS_PASSPHRASE);

    // Assert
    expect(initial).toContain('amount_gross=199.00&');
    expect(verified).toBe(false);
  });

  test('when two fields are swapped in order, then it is rejected', () => {
    // Arrange
    const swapped = initial.replace('name_first=Test&name_last=User+01', 'name_last=User+01&name_first=Test');

    // Act
    const verified = verifyItnSignature(swapped, EVENTS_PASSPHRASE);

    // Assert
    expect(swapped).not.toBe(initial);
    expect(verified).toBe(false);
  });

  test('when a blank field (custom_str2=) is dropped, then it is rejected', () => {
    // Arrange
    const dropped = editSegment(initial, 'custom_str2', null);

    // Act
    const verified = verifyItnSignature(dropped, EVENTS_PASSPHRASE);

    // Assert
    expect(dropped).not.toContain('custom_str2');
    expect(verified).toBe(false);
  });

  test('when the signature was computed with the docs snippet encodeURIComponent encoding, then it is rejected', () => {
    // Arrange
    const body = readBody('events/COMPLETE_special-chars_in_item_name.form.txt').toString('utf8');
    const docsStyle = parseItn(body)
      .pairs.filter(([key]) => key !== 'signature')
      .map(([key, value]) => `${key}=${encodeURIComponent(value.trim()).replace(/%20/g, '+')}`)
      .join('&');
    const docsSignature = md5Hex(`${docsStyle}&passphrase=${encodeURIComponent(EVENTS_PASSPHRASE)}`);
    const forged = editSegment(body, 'signature', docsSignature);

    // Act
    const verified = verifyItnSignature(forged, EVENTS_PASSPHRASE);

    // Assert
    expect(manifest.events['COMPLETE_special-chars_in_item_name']?.docs_node_snippet_encoding_gives_same_sig).toBe(
      false,
    );
    expect(docsSignature).not.toBe(parseItn(body).signature);
    expect(verified).toBe(false);
  });

  test('when the signature pair is missing, then it is rejected', () => {
    // Arrange
    const unsigned = editSegment(initial, 'signature', null);

    // Act
    const verified = verifyItnSignature(unsigned, EVENTS_PASSPHRASE);

    // Assert
    expect(verified).toBe(false);
  });

  test.each(['', 'not-a-signature', '1cf3e17fcaea635aad9e90333cfb82d', '1cf3e17fcaea635aad9e90333cfb82d8aa'])(
    'when the signature is %j, then it is rejected without throwing',
    (signature) => {
      // Arrange
      const bad = editSegment(initial, 'signature', signature);

      // Act
      const verified = verifyItnSignature(bad, EVENTS_PASSPHRASE);

      // Assert
      expect(verified).toBe(false);
    },
  );

  test('when the body has malformed percent-encoding, then it is rejected without throwing', () => {
    // Arrange
    const malformed = editSegment(initial, 'item_description', '%ZZ');

    // Act
    const verified = verifyItnSignature(malformed, EVENTS_PASSPHRASE);

    // Assert
    expect(verified).toBe(false);
  });
});

describe('verifyItnSignature candidates', () => {
  const initial = readBody('events/COMPLETE_initial.form.txt').toString('utf8');

  test('when the signature is upper-case hex, then it still verifies', () => {
    // Arrange
    const upper = editSegment(initial, 'signature', '1CF3E17FCAEA635AAD9E90333CFB82D8');

    // Act
    const verified = verifyItnSignature(upper, EVENTS_PASSPHRASE);

    // Assert
    expect(verified).toBe(true);
  });

  test(
    'when the same values arrive with non-PHP percent-encoding, ' + 'then the PHP re-encoding candidate verifies them',
    () => {
      // Arrange: lower-case hex, bare ( ) ~ and an encoded '-' change the raw bytes but not the decoded values.
      const body = readBody('events/COMPLETE_special-chars_in_item_name.form.txt').toString('utf8');
      const reencoded = body
        .replace('%28annual%29+%7E', '(annual)+~')
        .replace('Caf%C3%A9', 'Caf%c3%a9')
        .replace('ord_0042', 'ord%5F0042');

      // Act
      const verified = verifyItnSignature(reencoded, EVENTS_PASSPHRASE);

      // Assert
      expect(reencoded).toContain('(annual)+~');
      expect(reencoded).toContain('Caf%c3%a9');
      expect(reencoded).toContain('ord%5F0042');
      expect(parseItn(reencoded).fields).toEqual(parseItn(body).fields);
      expect(verified).toBe(true);
    },
  );

  test('when the sender signed its exact non-PHP bytes, then the raw-body candidate verifies them', () => {
    // Arrange: '%20' for a space is not what PHP urlencode produces, so only the raw-body rendering matches.
    const unsigned = editSegment(editSegment(initial, 'name_last', 'User%2001'), 'signature', null);
    const body = `${unsigned}&signature=${md5Hex(`${unsigned}&passphrase=${EVENTS_PASSPHRASE}`)}`;

    // Act
    const verified = verifyItnSignature(body, EVENTS_PASSPHRASE);

    // Assert
    expect(verified).toBe(true);
    expect(verifyItnSignature(body, 'other-passphrase')).toBe(false);
  });

  test('when the body is a Buffer or the same text as a string, then both verify', () => {
    // Arrange
    const live = readBody('real/live_COMPLETE_passphrase_non-ascii.form.txt');

    // Act
    const fromBuffer = verifyItnSignature(live, '3aTs0m3Cak3yay');
    const fromString = verifyItnSignature(live.toString('utf8'), '3aTs0m3Cak3yay');

    // Assert
    expect(fromBuffer).toBe(true);
    expect(fromString).toBe(true);
  });
});

describe('parseItn', () => {
  test('when the live ITN is parsed, then order, blanks, + and UTF-8 are preserved', () => {
    // Arrange
    const body = readBody('real/live_COMPLETE_passphrase_non-ascii.form.txt');

    // Act
    const itn = parseItn(body);

    // Assert
    expect(itn.pairs.map(([key]) => key)).toEqual([
      'm_payment_id',
      'pf_payment_id',
      'payment_status',
      'item_name',
      'item_description',
      'amount_gross',
      'amount_fee',
      'amount_net',
      'custom_str1',
      'custom_str2',
      'custom_str3',
      'custom_str4',
      'custom_str5',
      'custom_int1',
      'custom_int2',
      'custom_int3',
      'custom_int4',
      'custom_int5',
      'name_first',
      'name_last',
      'email_address',
      'merchant_id',
      'signature',
    ]);
    expect(itn.fields.item_name).toBe('Gulls Above the Crashing Surf');
    expect(itn.fields.item_description).toBe('Original painting \u2014 order ADG-20260826-8314');
    expect(itn.fields.email_address).toBe('xxdaniellejutaxx@gmail.com');
    expect(itn.fields.custom_str2).toBe('');
    expect(itn.fields.amount_fee).toBe('-20.70');
    expect(itn.signature).toBe('8d214cc1d19b2b03f09f01043fb5f628');
  });

  test('when a value holds an encoded plus (%2B), then it decodes to + while a bare + is a space', () => {
    // Arrange
    const body = readBody('real/php-sdk-test_COMPLETE_no-passphrase.form.txt');

    // Act
    const itn = parseItn(body);

    // Assert
    expect(itn.fields.email_address).toBe('lindley+user1@appinlet.com');
    expect(itn.fields.item_name).toBe('Order #000000020');
  });

  test('when parsed, then signedParamString is the raw body minus the signature pair', () => {
    // Arrange
    const body = readBody('events/COMPLETE_special-chars_in_item_name.form.txt').toString('utf8');

    // Act
    const itn = parseItn(body);

    // Assert
    expect(itn.signedParamString).toBe(body.replace('&signature=692ea6f28c0ac1c7175cfd4f4a50b700', ''));
    expect(itn.signedParamString).toContain('item_name=O%27Brien%27s+Plan');
  });

  test('when a field has no "=", then it is a blank value', () => {
    // Act
    const itn = parseItn('a=1&flag&b=');

    // Assert
    expect(itn.pairs).toEqual([
      ['a', '1'],
      ['flag', ''],
      ['b', ''],
    ]);
    expect(itn.signature).toBeNull();
    expect(itn.signedParamString).toBe('a=1&flag&b=');
  });

  test('when a field is named like an Object.prototype member, then it is plain data', () => {
    // Act
    const itn = parseItn('__proto__=x&constructor=y');

    // Assert
    expect(Object.keys(itn.fields)).toEqual(['__proto__', 'constructor']);
    expect(itn.fields.constructor).toBe('y');
  });

  test.each([
    ['a bad hex escape', 'amount_gross=%ZZ'],
    ['a truncated escape', 'amount_gross=100%'],
    ['a truncated UTF-8 sequence', 'item_description=%E2%80'],
    ['a malformed escape in a name', 'amount%G1=1'],
    ['an empty field name', '=1&a=2'],
    ['a repeated field', 'amount_gross=1.00&amount_gross=199.00'],
  ])('when the body has %s, then it throws ItnFormatError', (_case, body) => {
    // Act
    const parse = () => parseItn(body);

    // Assert
    expect(parse).toThrow(ItnFormatError);
  });

  test('when a Buffer is not valid UTF-8, then it throws ItnFormatError', () => {
    // Arrange
    const body = Buffer.concat([Buffer.from('item_name='), Buffer.from([0xff, 0xfe])]);

    // Act
    const parse = () => parseItn(body);

    // Assert
    expect(parse).toThrow(ItnFormatError);
  });
});

describe('itnParamStringForValidation', () => {
  test('when given a received ITN, then it is every pair except signature, with no passphrase', () => {
    // Arrange
    const body = readBody('events/COMPLETE_initial.form.txt');

    // Act
    const paramString = itnParamStringForValidation(body);

    // Assert
    expect(paramString).toBe(body.toString('utf8').replace('&signature=1cf3e17fcaea635aad9e90333cfb82d8', ''));
    expect(paramString).toContain('custom_str2=&');
    expect(paramString).toMatch(/&billing_date=2026-11-21$/);
    expect(paramString).not.toContain('signature');
    expect(paramString).not.toContain('passphrase');
  });

  test('when the signature is not the last pair, then it is still removed and the order kept', () => {
    // Act
    const paramString = itnParamStringForValidation('a=1&signature=abc&b=x+y');

    // Assert
    expect(paramString).toBe('a=1&b=x+y');
  });
});
