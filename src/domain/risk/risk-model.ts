import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The tunable parameters of the scoring model, shipped as data/risk/risk_categories.json (notes: §C). */
export interface RiskModel {
  version: string;
  severity(category: string): number;
  confidenceMultiplier(confidence: string | null): number;
  /** Lower index = worse; used to pick the category a multi-label address is shown under. */
  priority(category: string): number;
}

interface RiskCategoriesFile {
  version: string;
  confidence_multiplier: Record<string, number>;
  categories: Record<string, { severity: number }>;
  category_priority: string[];
}

export function loadRiskModel(dataDir: string): RiskModel {
  const file = JSON.parse(readFileSync(path.join(dataDir, 'risk_categories.json'), 'utf8')) as RiskCategoriesFile;
  const lowest = file.confidence_multiplier.low ?? 0.75;
  return {
    version: file.version,
    severity: (category) => file.categories[category]?.severity ?? 0,
    confidenceMultiplier: (confidence) => (confidence ? (file.confidence_multiplier[confidence] ?? lowest) : lowest),
    priority: (category) => {
      const i = file.category_priority.indexOf(category);
      return i === -1 ? file.category_priority.length : i;
    },
  };
}
