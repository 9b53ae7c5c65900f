import { z } from 'zod';
import { trustProxySchema } from '../http/trust-proxy';
import { LOG_FORMATS } from '../logging/log-format';
import { signingKeysFromEnv } from '../signing/signing-keys-env';
import { temporalAccessProblems } from '../temporal/temporal-access-policy';
import { configSlice, NODE_ENVS, type SliceConfig } from './config-slice';
import { envFlag, envPort } from './env-readers';

/**
 * What every process needs, whatever features it runs: its mode, logs, Postgres, Temporal, listeners, evidence keys.
 */
const variables = z.object({
  NODE_ENV: z.enum(NODE_ENVS).default('development'),
  PORT: envPort.default(3000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** auto = readable lines (pino-pretty) when stderr is a terminal, JSON lines otherwise; json or pretty force one. */
  LOG_FORMAT: z.enum(LOG_FORMATS).default('auto'),
  /** Everything `npm start` writes (embedded Postgres, Temporal's SQLite file) lives here. */
  DATA_DIR: z.string().min(1).default('.data'),

  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** How long a request waits for a pooled connection (or a new one) before it is answered 503. */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  /**
   * Server-side statement_timeout of the serving pools; the client gives up 2 s later if the server
   * itself stopped answering.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  EMBEDDED_PG_PORT: envPort.default(54329),

  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  /**
   * mTLS to the Temporal frontend: this process's client certificate and its private key, each PEM text or the path
   * of a PEM file (read at start). Either both or neither.
   */
  TEMPORAL_TLS_CERT: z.string().min(1).optional(),
  TEMPORAL_TLS_KEY: z.string().min(1).optional(),
  /** The CA that signed the frontend's certificate, PEM text or a file path (default: the system's trusted roots). */
  TEMPORAL_TLS_CA: z.string().min(1).optional(),
  /** The name the frontend's certificate is checked against (and sent as SNI), when not TEMPORAL_ADDRESS's host. */
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  /**
   * Temporal Cloud API key, sent over TLS as `authorization: Bearer …` with the namespace as `temporal-namespace`.
   */
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  /**
   * In production a remote TEMPORAL_ADDRESS must authenticate (mTLS or an API key): whoever reaches the frontend can
   * start the payment workflows. true accepts a plaintext, unauthenticated frontend on a network only we can reach.
   */
  TEMPORAL_ALLOW_INSECURE: envFlag.default(false),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('chainscreen'),
  TEMPORAL_PORT: envPort.default(7233),
  TEMPORAL_UI_PORT: envPort.default(8233),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
  /**
   * The api's internal listener: /healthz, the detailed /readyz and /metrics, for probes and scrapers inside the
   * deployment (0 = any free port). The public PORT answers /readyz with only ready or not, and no /metrics.
   */
  INTERNAL_PORT: envPort.default(9463),
  /** The interface INTERNAL_PORT listens on: loopback unless an orchestrator or scraper must reach it. */
  INTERNAL_HOST: z.string().min(1).default('127.0.0.1'),
  /** The worker process's own HTTP server: /healthz, /readyz, /metrics (0 = any free port). */
  WORKER_HTTP_PORT: envPort.default(9464),
  /** The interface WORKER_HTTP_PORT listens on: loopback unless an orchestrator or scraper must reach it. */
  WORKER_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * The worker's workflow cache (maxCachedWorkflows); unset: the SDK's default from the V8 heap (600 per GiB above
   * 200 MiB), which a cached workflow's measured 0.37 MiB of RSS fits (docs/operations.md#scaling-out).
   */
  WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(2).max(1_000_000).optional(),
  /**
   * Where the Temporal SDK exports its worker metrics, on 127.0.0.1 only; the worker's /metrics appends them (0 =
   * any free port).
   */
  TEMPORAL_SDK_METRICS_PORT: envPort.default(9465),
  /**
   * Express `trust proxy`: true, false, a hop count or comma-separated addresses/CIDRs of the proxies in front
   * (so that req.ip, which source checks and per-address limits read, is the real sender), read into the type
   * Express takes.
   */
  TRUST_PROXY: trustProxySchema,
  /**
   * Largest answer body any outbound HTTP call reads (chain providers, JSON-RPC nodes); a longer one fails the call
   * unread past the cap, and an eth_getLogs window that long is split like one the node refuses.
   */
  HTTP_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1_024)
    .max(1_073_741_824)
    .default(10 * 1024 * 1024),

  /**
   * The keys that sign completed screening answers: a JWKS JSON of private Ed25519 JWKs with kids; the first signs,
   * all are published at /.well-known/jwks.json. Unset = one generated and kept in Postgres (development default).
   */
  EVIDENCE_SIGNING_KEYS: signingKeysFromEnv.optional(),
  /**
   * Production refuses to start without EVIDENCE_SIGNING_KEYS unless this says, in so many words, that the key kept
   * in Postgres is acceptable: anyone who can read the database (or a backup of it) can then sign forged evidence.
   */
  EVIDENCE_KEYS_IN_DATABASE: envFlag.default(false),
});

export const platformConfigSlice = configSlice({
  variables,
  problems(config) {
    const production = config.NODE_ENV === 'production';
    const problems: string[] = [];
    if (production && !config.DATABASE_URL) problems.push('DATABASE_URL: required when NODE_ENV=production');
    if (production && !config.EVIDENCE_SIGNING_KEYS && !config.EVIDENCE_KEYS_IN_DATABASE)
      problems.push(
        'EVIDENCE_SIGNING_KEYS: required when NODE_ENV=production (or ' +
          'EVIDENCE_KEYS_IN_DATABASE=true to sign with the key kept in Postgres, which whoever reads the database ' +
          'can use to forge evidence; docs/configuration.md#evidence-signing-keys)',
      );
    return [...problems, ...temporalAccessProblems(config)];
  },
});

/** The platform's variables, as every process reads them. */
export type PlatformConfig = SliceConfig<typeof platformConfigSlice>;
