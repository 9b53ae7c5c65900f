import type { PanelProps } from './panel-props';

export function KeysPanel(_props: PanelProps) {
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
    </section>
  );
}
