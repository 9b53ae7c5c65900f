import { randomUUID } from 'node:crypto';
import { historyEntryBodySchema } from '../../src/history/history-entry-schema';
import { HistoryEntryError, parseHistoryEntry } from '../../src/history/history-entry';

/**
 * The history webhook validates by hand (its messages are fixed by the contract); the OpenAPI
 * document describes the body with a zod schema beside the validator. Generated bodies go to both:
 * the validator must refuse exactly what the schema refuses.
 */

function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}
const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const accepts = (body: unknown): boolean => {
  try {
    parseHistoryEntry(body);
    return true;
  } catch (err) {
    if (err instanceof HistoryEntryError) return false;
    throw err;
  }
};

const TEXTS: unknown[] = [
  'ethereum',
  '  0xabc  ',
  '',
  '   ',
  null,
  undefined,
  5,
  'x'.repeat(512),
  'x'.repeat(513),
  ['a'],
  { a: 1 },
];
const UUIDS: unknown[] = [
  randomUUID(),
  randomUUID().toUpperCase(),
  ` ${randomUUID()} `,
  '',
  '  ',
  null,
  undefined,
  'not-a-uuid',
  7,
  '123e4567-e89b-12d3-a456-42661417400',
];
const VALUES: Record<string, unknown[]> = {
  activityType: ['kyt', 'kya', 'kye', 'KYT', ' Kya ', '\u212Aye', 'kyx', '', null, undefined, 3],
  userId: ['user_2abc', randomUUID(), '  u  ', '', '   ', null, undefined, 9, 'u'.repeat(128), 'u'.repeat(129)],
  requestId: UUIDS,
  responseId: UUIDS,
  blockchain: TEXTS,
  transactionHash: TEXTS,
  address: TEXTS,
  entityId: TEXTS,
  entityName: TEXTS,
  errorMessage: TEXTS,
  clientAppId: TEXTS,
  statusCode: [200, 404, 99, 100, 599, 600, 200.5, '200', null, undefined],
  riskLevel: ['low', 'HIGH', ' Medium ', 'critical', 'severe', '', '   ', null, undefined, 1],
  riskScore: [0, 100, 55.5, -1, 101, '50', null, undefined],
  requestPayload: [{ a: 1 }, {}, [], 'x', null, undefined],
  metadata: [{ source: 'test' }, [], 3, null, undefined],
};
const VALID: Record<string, Record<string, unknown>> = {
  kyt: { activityType: 'kyt', userId: 'user_2abc', blockchain: 'ethereum', transactionHash: '0xabc' },
  kya: { activityType: 'kya', userId: 'user_2abc', blockchain: 'tron', address: 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz' },
  kye: { activityType: 'kye', userId: 'user_2abc', entityId: 'ent-1' },
};

describe('the activity webhook body schema against parseHistoryEntry', () => {
  test(
    'when 1500 generated bodies go to the validator and to the schema, ' +
      'then the validator refuses exactly those the schema refuses',
    () => {
      const random = prng(3);
      const disagreements: string[] = [];
      let acceptedCount = 0;
      for (let i = 0; i < 1500; i++) {
        // A valid record with one to three fields replaced: most bodies are near the line between valid and not.
        const body: Record<string, unknown> = { ...pick(random, Object.values(VALID)) };
        for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
          const field = pick(random, Object.keys(VALUES));
          const value = pick(random, VALUES[field] as unknown[]);
          if (value === undefined) delete body[field];
          else body[field] = value;
        }
        const validator = accepts(body);
        const schema = historyEntryBodySchema.safeParse(body).success;
        if (validator) acceptedCount += 1;
        if (validator !== schema)
          disagreements.push(
            `${JSON.stringify(body)}: validator ${validator ? 'accepts' : 'refuses'}, ` +
              `schema ${schema ? 'accepts' : 'refuses'}`,
          );
      }
      expect(disagreements.slice(0, 10)).toEqual([]);
      // Both sides of the line were exercised.
      expect(acceptedCount).toBeGreaterThan(300);
      expect(acceptedCount).toBeLessThan(1300);
    },
  );

  test('when the body is not an object, then both refuse it', () => {
    for (const body of [null, [], 'text', 42])
      expect([accepts(body), historyEntryBodySchema.safeParse(body).success]).toEqual([false, false]);
  });
});
