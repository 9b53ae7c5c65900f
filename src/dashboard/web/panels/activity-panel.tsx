import type { PanelProps } from './panel-props';

export function ActivityPanel(_props: PanelProps) {
  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">Activity history</h1>
    </section>
  );
}
