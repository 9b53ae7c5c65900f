import { createEntityStore } from '../../src/screening/reference-data/entities-store';
import { startTestStack, type TestStack } from '../helpers/test-stack';

describe('entity directory (KYE lookup over data/risk/entities_vasp.csv)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
  });
  afterAll(async () => stack.stop());

  test(
    'when a sanctioned exchange is looked up by an alias with a typo, then its profile carries the ' +
      'OFAC programs and sanctioned addresses',
    async () => {
      const profile = await createEntityStore(stack.pool).findBestMatch('garantex europe');
      expect(profile).toMatchObject({
        name: 'GARANTEX EUROPE OU',
        type: 'exchange',
        status: ['sanctioned'],
        risk: 'severe',
        sanctions: { sdn_uids: ['36025'] },
      });
      expect(profile!.sanctions.programs.length).toBeGreaterThan(0);
      expect(Object.values(profile!.sanctions.addresses_by_chain).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(profile!.match.score).toBeGreaterThan(0.45);
    },
  );

  test(
    'when an exact name is looked up, then it matches ' + 'with score 1 and lists its licences and countries',
    async () => {
      const profile = await createEntityStore(stack.pool).findBestMatch('Bitpanda');
      expect(profile).toMatchObject({ entity_id: 'E00001', countries: ['AT', 'MT'], match: { score: 1 } });
      expect(profile!.licences[0]).toMatch(/^LEI:/);
    },
  );

  test('when a well-known exchange is looked up, then its labelled addresses are counted per chain', async () => {
    const profile = await createEntityStore(stack.pool).findBestMatch('binance');
    expect(profile!.name.toLowerCase()).toContain('binance');
    expect(Object.keys(profile!.known_addresses_by_chain).length).toBeGreaterThan(0);
  });

  test('when nothing is close enough, then there is no match', async () => {
    expect(await createEntityStore(stack.pool).findBestMatch('qqqq zzzz xylophone')).toBeNull();
  });
});
