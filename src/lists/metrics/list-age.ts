import { Gauge, type Registry } from 'prom-client';
import type { ListStore } from '../list-store';

/**
 * chainscreen_list_age_seconds{list}: seconds since the active version's issue date, read from Postgres when
 * /metrics is scraped (so every api instance reports the same), for an alert on a list that stopped refreshing.
 */
export function registerListAge(registry: Registry, lists: Pick<ListStore, 'activeVersion'>): Gauge<'list'> {
  return new Gauge({
    name: 'chainscreen_list_age_seconds',
    help: 'Seconds since the issue date of the active version of each sanctions list (absent when none is loaded)',
    labelNames: ['list'],
    registers: [registry],
    async collect() {
      this.reset();
      const active = await lists.activeVersion('ofac').catch(() => null);
      if (!active) return;
      const issued = Date.parse(`${active.issueDate}T00:00:00Z`) / 1000;
      this.set({ list: 'ofac' }, Math.max(0, Math.round(Date.now() / 1000 - issued)));
    },
  });
}
