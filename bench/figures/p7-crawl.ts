import { createReferenceData } from '../../src/screening/engine/reference-data';
import { createScreeningEngine } from '../../src/screening/engine/engine';
import { loadPriceBook } from '../../src/screening/engine/prices';
import { loadRiskModel } from '../../src/screening/engine/risk-model';
import type { BenchContext } from '../lib/context';
import type { Figure } from '../lib/report';
import { percentile, timed } from '../lib/stats';
import { startCrawlScenarios } from './p7-crawl-scenarios';

/** Raw calls timed after each crawl run, so both samples see the same machine load. */
const RAW_CALLS_PER_RUN = 3;

/**
 * P7: the engine alone (no API or Temporal in the measurement) per chain: crawl time p50 and chain
 * calls per job, beside what those calls cost bare (calls × one raw request's p50 to the same
 * server): the ratio is the crawl's own overhead, or its parallelism when under 1.
 */
export async function measureCrawl(ctx: BenchContext): Promise<Figure[]> {
  const runs = ctx.config.BENCH_CRAWL_RUNS;
  const scenarios = await startCrawlScenarios();
  try {
    const engine = createScreeningEngine({
      referenceData: createReferenceData(ctx.stack.pool),
      chainClients: scenarios.clients,
      prices: loadPriceBook('data/prices/usd-reference-prices.json'),
      model: loadRiskModel('data/risk'),
    });
    ctx.progress(`P7: ${scenarios.jobs.length} crawl jobs × ${runs} runs on the engine`);
    const figures: Figure[] = [];
    for (const job of scenarios.jobs) {
      const rawCall = scenarios.rawCall[job.request.chain] as () => Promise<void>;
      const raw: number[] = [];
      const crawl: number[] = [];
      const analysis: number[] = [];
      const calls = new Set<number>();
      let nodes = 0;
      for (let i = 0; i < runs; i++) {
        const r = await engine.analyze({ ...job.request, crawlTimeoutMs: 8000 }, AbortSignal.timeout(8000));
        crawl.push(r.full.performance.crawl_ms ?? 0);
        analysis.push(r.full.performance.analysis_ms);
        calls.add(r.full.performance.crawl_requests ?? 0);
        nodes = r.full.performance.nodes_visited ?? 0;
        for (let k = 0; k < RAW_CALLS_PER_RUN; k++) raw.push((await timed(rawCall)).ms);
      }
      // Every run of a job makes the same calls (no cache on these clients); a spread would mean a flaky scenario.
      const perJob = Math.max(...calls);
      figures.push({
        id: 'P7',
        figure: `${job.name}: crawl p50 ÷ its chain calls × one raw call p50`,
        value: percentile(crawl, 50),
        baseline: perJob * percentile(raw, 50),
        unit: 'ms',
        note:
          `${perJob} chain calls/job${calls.size > 1 ? ` (varied: ${[...calls].join('/')})` : ''}, ` +
          `${nodes} nodes, analysis p50 ${percentile(analysis, 50).toFixed(0)} ms`,
      });
    }
    const misses = scenarios.misses();
    if (misses.length > 0) throw new Error(`the replay server had no answer for: ${misses.slice(0, 5).join(', ')}`);
    return figures;
  } finally {
    await scenarios.close();
  }
}
