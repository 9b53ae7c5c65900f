import { z } from 'zod';

/** Reads "true"/"false" (and 1/0) strictly: `Boolean("false")` is true, which is how safeguards get switched off by accident. */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const port = z.coerce.number().int().min(0).max(65535);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: port.default(3000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Everything `npm start` writes (embedded Postgres, Temporal's SQLite file) lives here. */
  DATA_DIR: z.string().min(1).default('.data'),

  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  EMBEDDED_PG_PORT: port.default(54329),

  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('chainscreen'),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),

  CLERK_JWT_KEY: z.string().min(1).optional(),
  CLERK_AUTHORIZED_PARTIES: z
    .string()
    .optional()
    .transform((v) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [])),
  BOOTSTRAP_ADMIN_API_KEY: z.string().min(24, 'BOOTSTRAP_ADMIN_API_KEY must be at least 24 characters').optional(),

  ETHEREUM_RPC_URL: z.string().url().optional(),
  BSC_RPC_URL: z.string().url().optional(),
  CHAIN_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),

  CRAWL_TIMEOUT_DEFAULT_MS: z.coerce.number().int().min(1000).max(120_000).default(8000),
  CRAWL_TIMEOUT_MAX_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
  /** How long the deprecated synchronous endpoints wait before answering 202 with the job to poll. */
  SYNC_ANALYZE_WAIT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
  /** A worker that stops heartbeating for this long is presumed dead and its analysis is retried elsewhere. */
  ANALYSIS_HEARTBEAT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(10_000),

  REFERENCE_DATA_DIR: z.string().min(1).default('data/risk'),
  /** Skip loading the reference lists at start (the api does not need it when the worker or `npm run migrate` loads them). */
  LOAD_REFERENCE_DATA: flag.default(true),
});

export type Config = Readonly<z.infer<typeof schema>>;

export class ConfigError extends Error {}

/** Parses the environment once at start; every other module receives the frozen result. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // `PORT=` in a .env file means "not set", not 0 (which z.coerce would make of an empty string).
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production' && !config.DATABASE_URL) {
    throw new ConfigError('Invalid configuration:\n  DATABASE_URL: required when NODE_ENV=production');
  }
  return Object.freeze(config);
}

/** Entry points call this: a bad config ends the process with the reasons, not a stack trace. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
