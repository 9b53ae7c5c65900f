import { z } from 'zod';

const count = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
const FIGURE_IDS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'p11', 'p12'] as const;
export type FigureId = (typeof FIGURE_IDS)[number];
/** The figures `npm run bench` measures again on the production shape's Temporal server (issue 32). */
export const PRODUCTION_SHAPE_FIGURES: readonly FigureId[] = ['p1', 'p2', 'p11'];

/** Sizes of `npm run bench`; the defaults finish the whole run in a few minutes on a 2-core machine. */
const schema = z.object({
  /** Comma-separated subset of p1..p12 (default all), for re-measuring one figure. */
  BENCH_ONLY: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((s) => s.trim().toLowerCase()) : [...FIGURE_IDS]))
    .pipe(z.array(z.enum(FIGURE_IDS)).min(1)),
  /**
   * Which Temporal the figures run on, in this order: `dev` (the CLI's dev server: every figure of BENCH_ONLY) and
   * `production` (the Temporal server on Postgres of `npm run test:production-shape`: those of BENCH_ONLY among
   * PRODUCTION_SHAPE_FIGURES, each row's id marked "(production shape)"), each on a stack of its own.
   */
  BENCH_SHAPES: z
    .string()
    .default('dev,production')
    .transform((v) => v.split(',').map((s) => s.trim().toLowerCase()))
    .pipe(z.array(z.enum(['dev', 'production'])).min(1)),
  BENCH_JOBS: count(200),
  BENCH_JOBS_CONCURRENCY: count(20),
  BENCH_LATENCY_JOBS: count(100),
  BENCH_LATENCY_CONCURRENCY: count(10),
  BENCH_POLLS: count(3000),
  BENCH_POLL_CONCURRENCY: count(100),
  BENCH_WEBHOOKS: count(200),
  BENCH_WEBHOOK_CONCURRENCY: count(10),
  BENCH_ACTIVITY_POSTS: count(2000),
  BENCH_ACTIVITY_CONCURRENCY: count(100),
  BENCH_CANDLE_REQUESTS: count(300),
  BENCH_CRAWL_RUNS: count(20),
  /** P9: monitors on the stack, of which BENCH_MONITORS_TOUCHED watch an address the list update changes. */
  BENCH_MONITORS: count(10_000),
  BENCH_MONITORS_TOUCHED: count(100),
  /** P10: items of the batch, and single jobs of its baseline (the batch route takes at most 1,000). */
  BENCH_BATCH_ITEMS: z.coerce.number().int().min(2).max(1_000).default(1_000),
  /** P12: ordinary wallets of the simulated economy (each seed), at least 200 for the issue's figure. */
  BENCH_ENTITY_WALLETS: count(200),
  /** P12: clean addresses screened per seed (a seeded sample), and analyses in flight. */
  BENCH_ENTITY_CLEAN_SAMPLE: count(300),
  /**
   * P12: exposed addresses reached only through a CoinJoin screened per seed (a seeded sample; every other exposed
   * address is screened): they are most of the exposed set, and their recall is estimated from the sample.
   */
  BENCH_ENTITY_COINJOIN_SAMPLE: count(100),
  /** P12: which scenarios run; the figure reports both (`tuning` alone is for developing the benchmark). */
  BENCH_ENTITY_SEEDS: z
    .string()
    .default('tuning,held-out')
    .transform((v) => v.split(',').map((s) => s.trim().toLowerCase()))
    .pipe(z.array(z.enum(['tuning', 'held-out'])).min(1)),
  /** P12: print the analyses that missed an exposed address not reached through a CoinJoin (why they missed). */
  BENCH_ENTITY_DEBUG: z
    .enum(['0', '1', 'true', 'false'])
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  BENCH_ENTITY_CONCURRENCY: count(4),
  /** P12: random unions of the in-process union-find (over as many keys), and links applied to the Postgres store. */
  BENCH_ENTITY_UNIONS: count(1_000_000),
  BENCH_ENTITY_STORE_LINKS: count(20_000),
  /** P12: addresses of the one-owner cluster built through node calls (in funding transactions of 100 outputs). */
  BENCH_ENTITY_CLUSTER_SIZE: count(10_000),
});

export type BenchConfig = z.infer<typeof schema>;

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid benchmark configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
