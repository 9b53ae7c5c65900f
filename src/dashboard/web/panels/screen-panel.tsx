import type { PanelProps } from './panel-props';

export function ScreenPanel(_props: PanelProps) {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Screen an address or transaction</h1>
    </section>
  );
}
