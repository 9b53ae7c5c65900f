import { RiskLevel } from '../screen/risk-level';

/** A level and score of an item, or a dash while it has none (queued, invalid, refused, failed). */
export function ItemScore({ level, score }: { level: string | null; score: number | null }) {
  if (!level) return <span class="hint">—</span>;
  return (
    <>
      <RiskLevel level={level} /> {score}
    </>
  );
}
