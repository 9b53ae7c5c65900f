import {
  fieldOfParameter,
  initialFormState,
  type PolicyFormState,
  policyBody,
} from '../../src/dashboard/web/policies/policy-form-state';
import type { PolicyBounds } from '../../src/dashboard/web/policies/policy-types';
import { policyBodySchema, shippedRiskModel } from '../../src/screening';

/**
 * The dashboard's policy editor sends only what differs from the standard model, and shows the API's 400 next to the
 * field it names. Checked here against the API's own schema (policyBodySchema of the shipped model): the standard form
 * sends no setting, in-range changes are accepted as sent, and every out-of-range value of every input is refused
 * naming exactly that input's field, so the message always lands next to it.
 */

const model = shippedRiskModel();
const schema = policyBodySchema(model);
const doc = model.document;

/** What GET /api/v1/policies/bounds answers for the shipped model (api-shapes: the standard values and the limits). */
const bounds: PolicyBounds = {
  bounds: doc.policy_bounds as PolicyBounds['bounds'],
  categories: Object.fromEntries(Object.entries(doc.category_severity).map(([c, severity]) => [c, { severity }])),
  levels: model.levelBounds,
  indirect: { min_share: doc.crawl.dust_share, min_usd: doc.crawl.dust_usd, max_hops: null },
};

function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/** Every numeric input of the form: its field path, how to set it, and its range. */
function numericInputs(state: PolicyFormState) {
  const b = bounds.bounds;
  const inputs: { field: string; range: readonly [number, number]; integer: boolean; set: (v: string) => void }[] = [
    { field: 'levels.MEDIUM', range: b.level_cutoff, integer: true, set: (v) => (state.levels.MEDIUM = v) },
    { field: 'levels.HIGH', range: b.level_cutoff, integer: true, set: (v) => (state.levels.HIGH = v) },
    { field: 'indirect.min_share', range: b.min_share, integer: false, set: (v) => (state.indirect.min_share = v) },
    { field: 'indirect.min_usd', range: b.min_usd, integer: false, set: (v) => (state.indirect.min_usd = v) },
    { field: 'indirect.max_hops', range: b.max_hops, integer: true, set: (v) => (state.indirect.max_hops = v) },
  ];
  for (const category of Object.keys(state.categories)) {
    const c = state.categories[category]!;
    inputs.push(
      { field: `categories.${category}.severity`, range: b.severity, integer: true, set: (v) => (c.severity = v) },
      { field: `categories.${category}.weight`, range: b.weight, integer: false, set: (v) => (c.weight = v) },
    );
  }
  return inputs;
}

describe('dashboard policy editor against the API schema', () => {
  test('When the form is left at the standard values, then the body sets nothing and the API accepts it', () => {
    const body = policyBody({ ...initialFormState(bounds, null), id: 'p1' }, bounds);
    expect(body).toEqual({ description: null, categories: {}, indirect: {}, levels: {} });
    expect(schema.safeParse(body).success).toBe(true);
  });

  test(
    'When random in-range changes are made, then only the changed settings are sent, exactly as typed, ' +
      'and the API accepts the body',
    () => {
      const random = prng(21);
      for (let round = 0; round < 200; round++) {
        const state = initialFormState(bounds, null);
        const expected = new Map<string, number>();
        for (const input of numericInputs(state)) {
          if (random() > 0.15) continue;
          const [lo, hi] = input.range;
          const value = input.integer ? lo + Math.floor(random() * (hi - lo + 1)) : lo + random() * (hi - lo);
          input.set(String(value));
          expected.set(input.field, value);
        }
        // The HIGH cut-off must stay above MEDIUM: the cross-field rule is the API's (tested below).
        const medium = expected.get('levels.MEDIUM') ?? model.levelBounds.MEDIUM;
        const high = expected.get('levels.HIGH') ?? model.levelBounds.HIGH;
        if (medium >= high) continue;
        const body = policyBody(state, bounds);
        const sent = new Map<string, number>();
        for (const [c, v] of Object.entries(body.categories ?? {}))
          for (const [k, n] of Object.entries(v)) sent.set(`categories.${c}.${k}`, n as number);
        for (const [k, n] of Object.entries(body.indirect ?? {})) sent.set(`indirect.${k}`, n as number);
        for (const [k, n] of Object.entries(body.levels ?? {})) sent.set(`levels.${k}`, n as number);
        // A value equal to the standard one is not a change: it is not sent.
        const standard = (field: string): number | null => {
          const [group, key, sub] = field.split('.');
          if (group === 'levels') return model.levelBounds[key as 'MEDIUM' | 'HIGH'];
          if (group === 'indirect') return bounds.indirect[key as 'min_share' | 'min_usd' | 'max_hops'];
          return sub === 'weight' ? 1 : (bounds.categories[key!]?.severity ?? null);
        };
        const changed = new Map([...expected].filter(([field, v]) => v !== standard(field)));
        expect(sent).toEqual(changed);
        const parsed = schema.safeParse(body);
        expect(parsed.error?.issues ?? []).toEqual([]);
      }
    },
  );

  test(
    'When any numeric input is out of its range, ' + 'then the API refuses it naming that input, which the form holds',
    () => {
      let checked = 0;
      for (const input of numericInputs(initialFormState(bounds, null))) {
        for (const bad of [String(input.range[0] - 1), String(input.range[1] + 1), 'not a number']) {
          const state = initialFormState(bounds, null);
          numericInputs(state)
            .find((i) => i.field === input.field)!
            .set(bad);
          const parsed = schema.safeParse(policyBody(state, bounds));
          expect(parsed.success).toBe(false);
          const parameter = parsed.error!.issues[0]!.path.join('.');
          expect({ bad, parameter }).toEqual({ bad, parameter: input.field });
          expect(fieldOfParameter(parameter, state)).toBe(input.field);
          checked++;
        }
      }
      expect(checked).toBe((5 + 2 * Object.keys(doc.category_severity).length) * 3);
    },
  );

  test(
    'When the HIGH cut-off is set at or below MEDIUM, ' + 'then the refusal names levels.HIGH, a field of the form',
    () => {
      const state = initialFormState(bounds, null);
      state.levels.HIGH = String(model.levelBounds.MEDIUM);
      const parsed = schema.safeParse(policyBody(state, bounds));
      expect(parsed.error?.issues[0]?.path.join('.')).toBe('levels.HIGH');
      expect(fieldOfParameter('levels.HIGH', state)).toBe('levels.HIGH');
    },
  );

  test('When a stored policy is opened, then saving it unchanged sends the same settings back', () => {
    const state = initialFormState(bounds, null);
    state.categories.gambling = { severity: '90', weight: '2.5', severe: true };
    state.indirect.max_hops = '2';
    state.levels.HIGH = '60';
    const first = policyBody(state, bounds);
    const view = {
      id: 'p',
      version: 1,
      name: 'p',
      description: null,
      categories: first.categories!,
      severe_categories: ['gambling'],
      indirect: first.indirect!,
      levels: first.levels!,
      default: false,
      effective: {
        levels: { MEDIUM: model.levelBounds.MEDIUM, HIGH: 60 },
        indirect: { min_share: bounds.indirect.min_share, min_usd: bounds.indirect.min_usd, max_hops: 2 },
      },
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
    expect(policyBody(initialFormState(bounds, view), bounds)).toEqual({ ...first, name: 'p' });
  });
});
