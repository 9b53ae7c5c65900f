/** A risk level in colour and in words (colour is never the only signal). Accepts LOW/low, HIGH/high… */
export function RiskLevel({ level }: { level: string | null | undefined }) {
  if (!level) return <span class="hint">not scored</span>;
  const upper = level.toUpperCase();
  return <span class={`risk-level risk-${upper}`}>{upper}</span>;
}
