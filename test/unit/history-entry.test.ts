import { HistoryEntryError, parseHistoryEntry } from '../../src/history/history-entry';

const kyt = { activityType: 'kyt', userId: 'user_abc', blockchain: 'ethereum', transactionHash: '0xabc' };
const refusal = (body: unknown): HistoryEntryError => {
  try {
    parseHistoryEntry(body);
  } catch (err) {
    if (err instanceof HistoryEntryError) return err;
    throw err;
  }
  throw new Error('accepted');
};

describe('history entry from the webhook body (spec 2.7)', () => {
  test.each([[undefined], ['weird'], ['KYX'], [7]])(
    'when activityType is %p, then the contract message is given',
    (activityType) => {
      expect(refusal({ ...kyt, activityType }).message).toBe('Invalid activityType. Must be one of: kyt, kya, kye');
    },
  );

  test.each([[undefined], [''], ['   '], [42], [null]])('when userId is %p, then "userId is required"', (userId) => {
    expect(refusal({ ...kyt, userId }).message).toBe('userId is required');
  });

  test.each([
    ['kyt', 'blockchain', { activityType: 'kyt', transactionHash: '0x1' }],
    ['kyt', 'transactionHash', { activityType: 'kyt', blockchain: 'bitcoin' }],
    ['kya', 'blockchain', { activityType: 'kya', address: '1abc' }],
    ['kya', 'address', { activityType: 'kya', blockchain: 'tron', transactionHash: '0x1' }],
    ['kye', 'entityId', { activityType: 'kye', entityName: 'Binance' }],
  ])('when a %s record lacks %s, then the 400 names that field', (type, field, body) => {
    const err = refusal({ userId: 'user_abc', ...body });
    expect(err.field).toBe(field);
    expect(err.message).toBe(`${field} is required when activityType is ${type}`);
  });

  test('when only the required fields are sent, then the defaults fill the rest', () => {
    const e = parseHistoryEntry(kyt);
    expect(e).toMatchObject({
      statusCode: 200,
      errorMessage: null,
      metadata: {},
      riskLevel: null,
      riskScore: null,
      responseId: null,
      source: 'webhook',
      userRef: 'user_abc',
    });
    expect(e.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(e.idempotencyKey).toBe(`webhook:user_abc:${e.requestId}`);
    expect(parseHistoryEntry(kyt).requestId).not.toBe(e.requestId);
  });

  test('when statusCode is 400 or more without an errorMessage, then one is filled in; a given one is kept', () => {
    expect(parseHistoryEntry({ ...kyt, statusCode: 502 }).errorMessage).toBe('Request failed with status 502');
    expect(parseHistoryEntry({ ...kyt, statusCode: 404, errorMessage: 'tx not found' }).errorMessage).toBe(
      'tx not found',
    );
  });

  test('when nullable fields are null, then they are stored as null (metadata as {})', () => {
    const e = parseHistoryEntry({
      ...kyt,
      requestId: null,
      responseId: null,
      statusCode: null,
      entityName: null,
      riskLevel: null,
      riskScore: null,
      requestPayload: null,
      responsePayload: null,
      responseSummary: null,
      errorMessage: null,
      metadata: null,
      clientAppId: null,
      clientAppName: null,
    });
    expect(e).toMatchObject({
      statusCode: 200,
      entityName: null,
      riskLevel: null,
      riskScore: null,
      requestPayload: null,
      metadata: {},
      clientAppId: null,
    });
  });

  test.each([
    ['riskScore', 101],
    ['riskScore', -1],
    ['riskScore', '50'],
    ['riskLevel', 'severe'],
    ['statusCode', 99],
    ['statusCode', 200.5],
    ['statusCode', '200'],
    ['requestId', 'not-a-uuid'],
    ['responseId', 12],
    ['metadata', [1, 2]],
    ['responseSummary', 'text'],
    ['address', { a: 1 }],
    ['entityName', 'x'.repeat(513)],
  ])('when %s is %p, then the 400 names it', (field, value) => {
    expect(refusal({ ...kyt, [field]: value }).field).toBe(field);
  });

  test('when formats are valid, then they are normalised (lower-case UUIDs, risk level, chain)', () => {
    const e = parseHistoryEntry({
      ...kyt,
      activityType: 'KYT',
      blockchain: 'Ethereum',
      riskLevel: 'HIGH',
      riskScore: 87.5,
      requestId: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE',
      metadata: { caseId: 'c-1' },
    });
    expect(e).toMatchObject({
      activityType: 'kyt',
      blockchain: 'ethereum',
      riskLevel: 'high',
      riskScore: 87.5,
      requestId: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
      metadata: { caseId: 'c-1' },
    });
  });

  test('when the body is not an object, then it is refused', () => {
    expect(refusal([kyt]).message).toBe('The body must be a JSON object');
  });
});
