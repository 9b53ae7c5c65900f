import type { ListedModules } from './features';

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (all: infer I) => void
  ? I
  : never;

/** The activities one module registers (never, so left out of the union, for a module without any). */
type ModuleActivities<Module> = Module extends { readonly activities: (...args: never[]) => infer Built }
  ? Built
  : never;

/**
 * Every activity the worker registers, by name, as the listed modules build them (FeatureModule.activities): tests
 * replace one by its name with its own type checked.
 */
export type Activities = UnionToIntersection<ModuleActivities<ListedModules[number]>>;
