import type { PanelProps } from './panel-props';

export function MarketsPanel(_props: PanelProps) {
  return (
    <section aria-labelledby="markets-title">
      <h1 id="markets-title">Market candles</h1>
    </section>
  );
}
