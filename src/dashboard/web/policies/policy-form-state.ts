import type { CategorySetting, PolicyBody, PolicyBounds, PolicyView } from './policy-types';

/** A category's inputs as typed (strings: an input may be empty or half typed). */
export interface CategoryInputs {
  severity: string;
  weight: string;
  severe: boolean;
}

/** What the editor's inputs hold. Every numeric setting starts at the policy's value, else the standard one. */
export interface PolicyFormState {
  id: string;
  name: string;
  description: string;
  makeDefault: boolean;
  levels: { MEDIUM: string; HIGH: string };
  /** max_hops '' = no limit (the standard). */
  indirect: { min_share: string; min_usd: string; max_hops: string };
  categories: Record<string, CategoryInputs>;
}

/**
 * What a number input holds when the browser cannot read its text as a number (its value is then ''): sent as
 * typed words so the API refuses it by name, rather than the setting silently falling back to the standard.
 */
export const UNREADABLE_NUMBER = 'not a number';

/** A category's weight in the standard model: its indirect exposure counts as it is. */
export const STANDARD_WEIGHT = 1;

const text = (n: number | null | undefined): string => (n === null || n === undefined ? '' : String(n));

/** The editor's starting point: a new policy (the standard values) or the current version of `policy`. */
export function initialFormState(bounds: PolicyBounds, policy: PolicyView | null): PolicyFormState {
  const severe = new Set(policy?.severe_categories ?? []);
  const categories: Record<string, CategoryInputs> = {};
  for (const [category, standard] of Object.entries(bounds.categories)) {
    const own = policy?.categories[category];
    categories[category] = {
      severity: text(own?.severity ?? standard.severity),
      weight: text(own?.weight ?? STANDARD_WEIGHT),
      severe: severe.has(category) || own?.severe === true,
    };
  }
  const levels = policy?.effective.levels ?? bounds.levels;
  const indirect = policy?.effective.indirect ?? bounds.indirect;
  return {
    id: policy?.id ?? '',
    name: policy?.name ?? '',
    description: policy?.description ?? '',
    makeDefault: policy?.default ?? false,
    levels: { MEDIUM: text(levels.MEDIUM), HIGH: text(levels.HIGH) },
    indirect: {
      min_share: text(indirect.min_share),
      min_usd: text(indirect.min_usd),
      max_hops: text(indirect.max_hops),
    },
    categories,
  };
}

/**
 * An input's value as sent: undefined when empty or equal to the standard (so only changes are sent). A value the
 * browser could not read as a number is sent as typed, for the API to refuse by name like any other bad value.
 */
function changed(input: string, standard: number | null): number | string | undefined {
  const trimmed = input.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  if (Number.isNaN(n)) return trimmed;
  return n === standard ? undefined : n;
}

function defined<T extends object>(o: T): T | undefined {
  const kept = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** The PUT body: name, description, default, and every setting that differs from the standard model. */
export function policyBody(state: PolicyFormState, bounds: PolicyBounds): PolicyBody {
  const categories: Record<string, CategorySetting> = {};
  for (const [category, inputs] of Object.entries(state.categories)) {
    const setting = defined({
      severity: changed(inputs.severity, bounds.categories[category]?.severity ?? null),
      weight: changed(inputs.weight, STANDARD_WEIGHT),
      severe: inputs.severe ? true : undefined,
    } as CategorySetting);
    if (setting) categories[category] = setting;
  }
  const body: PolicyBody = {
    ...(state.name.trim() ? { name: state.name.trim() } : {}),
    description: state.description.trim() || null,
    categories,
    indirect:
      defined({
        min_share: changed(state.indirect.min_share, bounds.indirect.min_share),
        min_usd: changed(state.indirect.min_usd, bounds.indirect.min_usd),
        max_hops: changed(state.indirect.max_hops, bounds.indirect.max_hops),
      } as PolicyBody['indirect'] & object) ?? {},
    levels:
      defined({
        MEDIUM: changed(state.levels.MEDIUM, bounds.levels.MEDIUM),
        HIGH: changed(state.levels.HIGH, bounds.levels.HIGH),
      } as PolicyBody['levels'] & object) ?? {},
  };
  if (state.makeDefault) body.default = true;
  return body;
}

/** How many settings of the form differ from the standard model (shown as a summary above the save button). */
export function changedSettings(body: PolicyBody): number {
  const categories = Object.values(body.categories ?? {}).reduce((n, c) => n + Object.keys(c).length, 0);
  return categories + Object.keys(body.indirect ?? {}).length + Object.keys(body.levels ?? {}).length;
}

/**
 * The element id of the input a field path names (`categories.gambling.severity` →
 * `policy-categories-gambling-severity`).
 */
export const fieldElementId = (field: string): string => `policy-${field.replace(/[^A-Za-z0-9_-]+/g, '-')}`;

/** The editor's field for the parameter a 400 names, or null when no single field of the form holds it. */
export function fieldOfParameter(parameter: string, state: PolicyFormState): string | null {
  if (['id', 'policy_id', 'policyId'].includes(parameter)) return 'id';
  if (['name', 'description', 'default'].includes(parameter)) return parameter;
  if (/^levels\.(MEDIUM|HIGH)$/.test(parameter)) return parameter;
  if (/^indirect\.(min_share|min_usd|max_hops)$/.test(parameter)) return parameter;
  const category = /^categories\.([^.]+)\.(severity|weight|severe)$/.exec(parameter);
  if (category?.[1] && category[1] in state.categories) return parameter;
  return null;
}
