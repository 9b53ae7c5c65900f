import type { PanelProps } from './panel-props';

export function CreditsPanel(_props: PanelProps) {
  return (
    <section aria-labelledby="credits-title">
      <h1 id="credits-title">Credits</h1>
    </section>
  );
}
