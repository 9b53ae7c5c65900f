import { readFileSync } from 'node:fs';
import path from 'node:path';
import { riskModelSchema, type RiskModelDocument } from './risk-model-schema';

/** The scoring model of data/risk/risk-model.json (notes: §C): every weight, threshold and bound. */
export interface RiskModel {
  version: string;
  /** The validated file, as echoed in every full response's `model` section. */
  document: RiskModelDocument;
  /** Lowest score of MEDIUM and of HIGH, parsed from `levels`. */
  levelBounds: { MEDIUM: number; HIGH: number };
  severity(category: string): number;
  confidenceMultiplier(confidence: string | null): number;
  /** Lower index = worse; used to pick the category a multi-label address is shown under. */
  priority(category: string): number;
}

export const RISK_MODEL_FILE = 'risk-model.json';
const SHIPPED_DIR = path.join(__dirname, '..', '..', '..', 'data', 'risk');

export class RiskModelError extends Error {
  constructor(file: string, problems: string[]) {
    super(`${file} is not a valid risk model: ${problems.join('; ')}`);
    this.name = 'RiskModelError';
  }
}

export function parseRiskModel(raw: unknown, file = RISK_MODEL_FILE): RiskModel {
  const parsed = riskModelSchema.safeParse(raw);
  if (!parsed.success)
    throw new RiskModelError(
      file,
      parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`),
    );
  const doc = parsed.data;
  const lowest = doc.confidence_multiplier.low!;
  const lowestOf = (level: string) => Number(level.split('-')[0]);
  return {
    version: doc.version,
    document: doc,
    levelBounds: { MEDIUM: lowestOf(doc.levels.MEDIUM), HIGH: lowestOf(doc.levels.HIGH) },
    severity: (category) => doc.category_severity[category] ?? 0,
    confidenceMultiplier: (confidence) => (confidence ? (doc.confidence_multiplier[confidence] ?? lowest) : lowest),
    priority: (category) => {
      const i = doc.category_priority.indexOf(category);
      return i === -1 ? doc.category_priority.length : i;
    },
  };
}

/** Reads and validates `<dataDir>/risk-model.json` (the shipped data/risk by default). */
export function loadRiskModel(dataDir: string = SHIPPED_DIR): RiskModel {
  const file = path.join(dataDir, RISK_MODEL_FILE);
  return parseRiskModel(JSON.parse(readFileSync(file, 'utf8')), file);
}

let shipped: RiskModel | undefined;
/**
 * The shipped model, for code that runs before any engine exists (credit holds need the crawl depth,
 * level names need the bounds). Read once; the engine's own model is loaded the same way.
 */
export function shippedRiskModel(): RiskModel {
  shipped ??= loadRiskModel();
  return shipped;
}
