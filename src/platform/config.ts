import { z } from 'zod';
/** How EVM address history is read (src/screening/chains/evm-history-source.ts): auto picks the best available. */
export const EVM_HISTORY_MODES = ['auto', 'otterscan', 'etherscan', 'logs'] as const;
/** The bitcoin networks a deployment may screen (src/screening/chains/bitcoin-address.ts): BITCOIN_NETWORK. */
export const BITCOIN_NETWORKS = ['mainnet', 'testnet', 'regtest', 'simnet'] as const;
import { SYMBOL_PATTERN } from './http/common-patterns';
import { trustProxySchema } from './http/trust-proxy';
import { LOG_FORMATS } from './logging/log-format';
import { signingKeysFromEnv } from './signing/signing-keys-env';
import { temporalAccessProblems } from './temporal/temporal-access-policy';

/**
 * Reads "true"/"false" (and 1/0) strictly: `Boolean("false")` is true, which is how safeguards get switched
 * off by accident.
 */
const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** One MARKET_LIVE_SYMBOLS entry: SYMBOL or SYMBOL=EXCHANGEPAIR. */
const LIVE_SYMBOL = `${SYMBOL_PATTERN}(=[A-Za-z0-9]+)?`;

const port = z.coerce.number().int().min(0).max(65535);

/** The shortest PayFast passphrase accepted: the MD5 signature is only as strong as this secret. */
export const PAYFAST_PASSPHRASE_MIN_LENGTH = 12;

/** A contract address (kept lower-case, as the reference lists spell EVM addresses) or `off`. */
const evmContractOrOff = z.union([
  z.literal('off'),
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'an EVM address (0x + 40 hex) or off')
    .transform((v) => v.toLowerCase()),
]);

/** seconds of one severity's SLA: at least 1 s (tests), at most a year. */
const slaSeconds = z.number().int().min(1).max(31_536_000);
const severitySla = z.strictObject({ assign: slaSeconds, decide: slaSeconds });
const caseSlaSchema = z.strictObject({
  low: severitySla,
  medium: severitySla,
  high: severitySla,
  critical: severitySla,
});
const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: port.default(3000),
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
  EMBEDDED_PG_PORT: port.default(54329),

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
  /** Temporal Cloud API key, sent over TLS as `authorization: Bearer …` with the namespace as `temporal-namespace`. */
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  /**
   * In production a remote TEMPORAL_ADDRESS must authenticate (mTLS or an API key): whoever reaches the frontend can
   * start the payment workflows. true accepts a plaintext, unauthenticated frontend on a network only we can reach.
   */
  TEMPORAL_ALLOW_INSECURE: flag.default(false),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('chainscreen'),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
  /**
   * The api's internal listener: /healthz, the detailed /readyz and /metrics, for probes and scrapers inside the
   * deployment (0 = any free port). The public PORT answers /readyz with only ready or not, and no /metrics.
   */
  INTERNAL_PORT: port.default(9463),
  /** The interface INTERNAL_PORT listens on: loopback unless an orchestrator or scraper must reach it. */
  INTERNAL_HOST: z.string().min(1).default('127.0.0.1'),
  /** The worker process's own HTTP server: /healthz, /readyz, /metrics (0 = any free port). */
  WORKER_HTTP_PORT: port.default(9464),
  /** The interface WORKER_HTTP_PORT listens on: loopback unless an orchestrator or scraper must reach it. */
  WORKER_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Where the Temporal SDK exports its worker metrics, on 127.0.0.1 only; the worker's /metrics appends them (0 =
   * any free port).
   */
  TEMPORAL_SDK_METRICS_PORT: port.default(9465),

  CLERK_JWT_KEY: z.string().min(1).optional(),
  /**
   * The `iss` every Clerk session token must carry (the instance's Frontend API URL, e.g.
   * https://clerk.example.com); unset = not checked. Required in production when CLERK_JWT_KEY is set.
   */
  CLERK_ISSUER: z.url({ error: 'CLERK_ISSUER must be a URL, e.g. https://clerk.example.com' }).optional(),
  CLERK_AUTHORIZED_PARTIES: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    ),
  BOOTSTRAP_ADMIN_API_KEY: z.string().min(24, 'BOOTSTRAP_ADMIN_API_KEY must be at least 24 characters').optional(),
  /** Active (unrevoked) API keys one account may hold; creating one more is 409 API_KEY_LIMIT_REACHED. */
  MAX_ACTIVE_API_KEYS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(20),
  /**
   * How long an api instance answers an API key or session token it resolved without asking Postgres (0 = off). A
   * revocation or deactivation still holds at once: the cache drops on the outbox's credential events
   * (src/identity/identity-cache.ts). At most a minute, so last_used_at keeps its one-minute resolution.
   */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /**
   * Requests that start paid work (job submits, the deprecated analyze endpoints, monitor create and re-screen) one
   * account may make per minute, all its keys and sessions together; 0 = no limit. The default is far above what a
   * client (or `npm run bench`, about 30 submits/s) sends: it stops one account from flooding Temporal, while
   * credits remain what bounds the work.
   */
  JOB_SUBMIT_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(6000),
  /**
   * The keys that sign completed screening answers: a JWKS JSON of private Ed25519 JWKs with kids; the first signs,
   * all are published at /.well-known/jwks.json. Unset = one generated and kept in Postgres (development default).
   */
  EVIDENCE_SIGNING_KEYS: signingKeysFromEnv.optional(),
  /**
   * Production refuses to start without EVIDENCE_SIGNING_KEYS unless this says, in so many words, that the key kept
   * in Postgres is acceptable: anyone who can read the database (or a backup of it) can then sign forged evidence.
   */
  EVIDENCE_KEYS_IN_DATABASE: flag.default(false),

  ETHEREUM_RPC_URL: z.string().url().optional(),
  BSC_RPC_URL: z.string().url().optional(),
  /** Esplora REST base URL (self-hosted electrs, mempool.space/api, blockstream.info/api). */
  BITCOIN_ESPLORA_URL: z.string().url().optional(),
  /**
   * A bitcoin node's JSON-RPC (http://user:pass@host:port) with an address index (btcd --txindex --addrindex): read
   * instead of Esplora when both are set. The userinfo is sent as Basic authorization.
   */
  BITCOIN_RPC_URL: z.string().url().optional(),
  /**
   * The network whose addresses the api accepts (a regtest address is a 400 on mainnet, and the other way round) and
   * the bitcoin client reads; the BITCOIN_RPC_URL node must run it.
   */
  BITCOIN_NETWORK: z.enum(BITCOIN_NETWORKS).default('mainnet'),
  /** TronGrid-compatible API base URL (v1 + FullNode /wallet); TRON_API_KEY is sent as TRON-PRO-API-KEY. */
  TRON_API_URL: z.string().url().optional(),
  TRON_API_KEY: z.string().min(1).optional(),
  SOLANA_RPC_URL: z.string().url().optional(),
  /** rippled/Clio JSON-RPC over HTTP (s2.ripple.com or xrplcluster.com for full history). */
  XRPL_RPC_URL: z.string().url().optional(),
  /** How long a cached address page is served before the newest page is read and merged in (0 = always read). */
  CHAIN_CACHE_TRANSFERS_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3_600_000)
    .default(3_600_000),
  CHAIN_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
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
   * EVM address history: auto = Otterscan when the node has ots_*, else Etherscan when a key is set,
   * else eth_getLogs windows.
   */
  EVM_HISTORY_SOURCE: z.enum(EVM_HISTORY_MODES).default('auto'),
  /** Etherscan v2 multichain key (chainid 1 and 56; BSC needs a paid plan); enables the Etherscan history source. */
  ETHERSCAN_API_KEY: z.string().min(1).optional(),
  ETHERSCAN_API_URL: z.string().url().default('https://api.etherscan.io/v2/api'),
  /** The key's plan limit, shared by both chains (docs.etherscan.io/rate-limits: free 3/s, Lite 5/s, Standard 10/s). */
  ETHERSCAN_RATE_PER_SECOND: z.coerce.number().positive().max(1_000).default(3),
  /** eth_getLogs history on a plain node: blocks per window, and how many windows back from the head. */
  EVM_LOGS_WINDOW_BLOCKS: z.coerce.number().int().min(1).max(1_000_000).default(5_000),
  EVM_LOGS_MAX_WINDOWS: z.coerce.number().int().min(1).max(1_000).default(10),

  CRAWL_TIMEOUT_DEFAULT_MS: z.coerce.number().int().min(1000).max(120_000).default(8000),
  CRAWL_TIMEOUT_MAX_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
  /** How long the deprecated synchronous endpoints wait before answering 202 with the job to poll. */
  SYNC_ANALYZE_WAIT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
  /** A worker that stops heartbeating for this long is presumed dead and its analysis is retried elsewhere. */
  ANALYSIS_HEARTBEAT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(10_000),
  /** Where the OFAC refresh reads the SDN Advanced XML (a URL or a file path). */
  OFAC_REFRESH_SOURCE: z
    .string()
    .min(1)
    .default('https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN_ADVANCED.XML'),
  /**
   * A directory whose files a list refresh workflow may also read (e.g. an issue an operator dropped there); a file
   * must resolve (symlinks followed) inside it. Unset: the workflow reads OFAC_REFRESH_SOURCE only.
   */
  OFAC_ISSUE_DIR: z.string().min(1).optional(),
  /** Hours between OFAC refreshes by the schedule lists-refresh:ofac; 0 turns the refresh (and staleness) off. */
  OFAC_REFRESH_EVERY_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 31)
    .default(24),
  /** Hours between a monitor's scheduled re-screens (new transfers) when it does not set every_hours. */
  MONITOR_EVERY_HOURS_DEFAULT: z.coerce.number().int().min(1).max(8760).default(24),
  /**
   * Monitors (active or paused) one account may keep; one more is 409 MONITOR_LIMIT_REACHED. Each is a workflow that
   * lives until deleted, so even a paying account cannot start them without end.
   */
  MAX_ACTIVE_MONITORS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Custom labels (the account's own lists) one account may keep; one more is 409 CUSTOM_LABEL_LIMIT_REACHED. */
  MAX_CUSTOM_LABELS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Open cases (not closed) one account may hold; an alert that would open one more is logged, not opened. */
  MAX_OPEN_CASES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * The default SLA of a case per severity, seconds: `assign` (unassigned) and `decide` (not closed) before it
   * escalates. An account sets its own with PUT /api/v1/cases/sla (docs/cases.md).
   */
  CASE_SLA_SECONDS: z
    .string()
    .default(
      '{"low":{"assign":172800,"decide":1209600},"medium":{"assign":86400,"decide":604800},' +
        '"high":{"assign":14400,"decide":172800},"critical":{"assign":3600,"decide":86400}}',
    )
    .transform((text, ctx) => {
      const parsed = caseSlaSchema.safeParse(safeJson(text));
      if (!parsed.success) {
        ctx.addIssue({
          code: 'custom',
          message: 'a JSON object {low|medium|high|critical: {assign, decide}} of seconds',
        });
        return z.NEVER;
      }
      return parsed.data;
    }),
  /** How long a false positive keeps the same evidence on the same subject from alerting again. */
  CASE_FALSE_POSITIVE_SUPPRESSION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** A screened address whose history was read for its cluster longer ago than this is read again (docs/entities.md). */
  CLUSTER_REREAD_AFTER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400_000)
    .default(3_600_000),
  /** Policy edits (PUT/DELETE of /api/v1/policies...) one account may make per minute; 0 = no limit. */
  POLICY_EDIT_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(30),
  /** An active OFAC version older than this (by issue date) makes /readyz say degraded while refresh is on. */
  OFAC_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(3650).default(8),
  /**
   * Minutes between reads of the stablecoin freeze events (schedule lists-refresh:freezes; only with
   * ETHEREUM_RPC_URL or TRON_API_URL); 0 turns it off.
   */
  FREEZES_SYNC_EVERY_MINUTES: z.coerce.number().int().min(0).max(1440).default(10),
  /** Ethereum blocks the freeze reader stays behind the head, so a reorg cannot take back what it applied. */
  FREEZES_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).default(12),
  /** Where a contract without a cursor starts reading (default: one window before the confirmed head). */
  FREEZES_START_BLOCK: z.coerce.number().int().min(0).optional(),
  /** Blocks per eth_getLogs request (halved when the node calls a range too large). */
  FREEZES_WINDOW_BLOCKS: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  /** Where TRON's reader starts without a cursor (ISO 8601; default: a day before now). */
  FREEZES_TRON_START_AT: z.iso.datetime({ offset: true }).optional(),
  /** The contracts whose freeze events are read; `off` skips one. */
  FREEZES_USDT_ETHEREUM_CONTRACT: evmContractOrOff.default('0xdac17f958d2ee523a2206206994597c13d831ec7'),
  FREEZES_USDC_ETHEREUM_CONTRACT: evmContractOrOff.default('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'),
  FREEZES_USDT_TRON_CONTRACT: z
    .union([z.literal('off'), z.string().regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'a base58 TRON address (T…) or off')])
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  /**
   * The queued-job sweeper (a Temporal schedule run by the workers): every N seconds (0 = no schedule) it
   * starts the workflow of a job still queued RESTART_AFTER seconds after submission (its api process died
   * between the commit and the start), and releases and fails one queued longer than ABANDON_AFTER.
   */
  QUEUED_JOB_SWEEP_EVERY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  QUEUED_JOB_RESTART_AFTER_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  QUEUED_JOB_ABANDON_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(900),
  /**
   * Batch screening (POST /api/v1/kyt/batch): how many of a batch's item jobs its workflow runs at once, and after
   * how many item starts it continues as new (a run's history stays small whatever the batch size).
   */
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(20),
  BATCH_CONTINUE_AS_NEW_AFTER: z.coerce.number().int().min(1).max(5_000).default(250),

  /** Shared secret of the activity webhook (header X-Activity-Webhook-Secret); unset = every post is refused. */
  ACTIVITY_WEBHOOK_SECRET: z.string().min(16, 'ACTIVITY_WEBHOOK_SECRET must be at least 16 characters').optional(),
  /** Clerk's webhook signing secret (`whsec_…`); deliveries are refused with 503 until it is set. */
  CLERK_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'a Clerk signing secret (whsec_ followed by base64)')
    .optional(),

  PAYPAL_MODE: z.enum(['sandbox', 'live']).default('sandbox'),
  /** The id PayPal gave the webhook; it is part of every signed message, so it never comes from the request. */
  PAYPAL_WEBHOOK_ID: z.string().min(1).max(50).optional(),
  /** Only for the verify-webhook-signature fallback, used when a signing certificate cannot be fetched. */
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  /** How soon a sale whose subscription is not known yet (it arrived before ACTIVATED) is tried again. */
  PAYPAL_UNKNOWN_SUBSCRIPTION_RETRY_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** How long a cert URL whose certificate could not be loaded is not fetched again (forged URLs then cost nothing). */
  PAYPAL_CERT_FAILURE_TTL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
  /** Budget of verify-webhook-signature calls (authenticated, made only when a certificate cannot be loaded). */
  PAYPAL_POSTBACKS_PER_MINUTE: z.coerce.number().int().min(1).max(6_000).default(10),

  PAYFAST_MODE: z.enum(['sandbox', 'live']).default('sandbox'),
  PAYFAST_MERCHANT_ID: z
    .string()
    .regex(/^[0-9]{1,20}$/, 'the numeric PayFast merchant id')
    .optional(),
  PAYFAST_MERCHANT_KEY: z.string().min(1).optional(),
  /**
   * Signs ITNs and checkouts. Anyone who knows it can forge a paid ITN, so it must not be guessable: at least
   * PAYFAST_PASSPHRASE_MIN_LENGTH characters (PayFast's own sandbox passphrase has 12).
   */
  PAYFAST_MERCHANT_PASSPHRASE: z
    .string()
    .min(
      PAYFAST_PASSPHRASE_MIN_LENGTH,
      `at least ${PAYFAST_PASSPHRASE_MIN_LENGTH} characters: anyone who guesses it can forge a paid ITN ` +
        '(set the same passphrase in the PayFast dashboard)',
    )
    .optional(),
  /** Accept ITNs only from PayFast's published ranges and hosts (default: on in production). */
  PAYFAST_VERIFY_SOURCE: flag.optional(),
  /** Confirm every ITN with PayFast's /eng/query/validate before granting (default: on in production). */
  PAYFAST_SERVER_VALIDATION: flag.optional(),
  PAYFAST_NOTIFY_URL: z.string().url().optional(),
  PAYFAST_RETURN_URL: z.string().url().optional(),
  PAYFAST_CANCEL_URL: z.string().url().optional(),
  /** How long POST /billing/payfast/refunds waits for the refund to be applied before answering 202 (pending). */
  PAYFAST_REFUND_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  /**
   * Express `trust proxy`: true, false, a hop count or comma-separated addresses/CIDRs of the proxies in front
   * (req.ip for the PayFast source check), read into the type Express takes.
   */
  TRUST_PROXY: trustProxySchema,

  /** Where pay-per-use report payments (USDC on Base) go; without it the report routes answer 503. */
  X402_PAY_TO: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'an EVM address (0x + 40 hex)')
    .optional(),
  /** A remote x402 facilitator (e.g. CDP) … */
  X402_FACILITATOR_URL: z.string().url().optional(),
  /** … or an in-process facilitator that settles on this Base RPC with this funded key (it pays the gas). */
  X402_RPC_URL: z.string().url().optional(),
  X402_FACILITATOR_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'a 0x-prefixed 32-byte hex private key')
    .optional(),
  /** How long a paid KYT/KYA report may take before it is abandoned unpaid. */
  X402_REPORT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
  /**
   * Paid report attempts (requests carrying PAYMENT-SIGNATURE) one client address may make per minute, counted before
   * the payment is verified; and the ones naming one payer, counted once the header is decoded (0 = no limit).
   */
  X402_RATE_LIMIT_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(120),
  X402_RATE_LIMIT_PER_PAYER_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(60),

  REFERENCE_DATA_DIR: z.string().min(1).default('data/risk'),
  /**
   * Skip loading the reference lists at start (the api does not need it when the worker or `npm run
   * migrate` loads them).
   */
  LOAD_REFERENCE_DATA: flag.default(true),
  /** Candle files listed in <dir>/catalog.json (provenance in <dir>/SOURCES.md), loaded at start when they changed. */
  MARKET_DATA_DIR: z.string().min(1).default('data/market'),
  LOAD_MARKET_DATA: flag.default(true),
  /** Live candle sync from an exchange's public REST API (a Temporal workflow on the worker); off by default. */
  MARKET_LIVE_CONNECTOR: z.enum(['off', 'binance', 'kraken']).default('off'),
  /** Base URL of that API (default https://api.binance.com or https://api.kraken.com). */
  MARKET_LIVE_URL: z.string().url().optional(),
  /**
   * Our symbols to sync, comma-separated; SYMBOL=EXCHANGEPAIR names the exchange's pair (default
   * BTC-USDT=BTCUSDT / BTC-USD=XBTUSD).
   */
  MARKET_LIVE_SYMBOLS: z
    .string()
    .regex(
      new RegExp(`^\\s*${LIVE_SYMBOL}(\\s*,\\s*${LIVE_SYMBOL})*\\s*$`),
      'comma-separated SYMBOL or SYMBOL=EXCHANGEPAIR, e.g. BTC-USDT=BTCUSDT',
    )
    .optional(),
  MARKET_LIVE_INTERVAL: z.enum(['1m', '5m', '15m', '30m', '1h', '4h', '1d']).default('1m'),
  MARKET_LIVE_POLL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  /** How far back a symbol's first sync (or one after a long pause) reaches, in buckets of the interval. */
  MARKET_LIVE_BACKFILL_CANDLES: z.coerce.number().int().min(1).max(100_000).default(1000),
});

type Parsed = z.infer<typeof schema>;
/** Safeguards that default to the mode are resolved once here, so no other module reads NODE_ENV. */
export type Config = Readonly<
  Omit<Parsed, 'PAYFAST_VERIFY_SOURCE' | 'PAYFAST_SERVER_VALIDATION'> & {
    PAYFAST_VERIFY_SOURCE: boolean;
    PAYFAST_SERVER_VALIDATION: boolean;
  }
>;

/** In production a route must not run without the secret that authenticates its callers. */
const PRODUCTION_REQUIRED = [
  'DATABASE_URL',
  'CLERK_WEBHOOK_SECRET',
  'PAYPAL_WEBHOOK_ID',
  'PAYFAST_MERCHANT_ID',
  'PAYFAST_MERCHANT_PASSPHRASE',
] as const;

/** What a production deployment that accepts Clerk session tokens must pin them to. */
const CLERK_PRODUCTION_PINS = ['CLERK_ISSUER', 'CLERK_AUTHORIZED_PARTIES'] as const;
const isUnset = (value: string | readonly string[] | undefined) => value === undefined || value.length === 0;

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
  const production = parsed.data.NODE_ENV === 'production';
  const config: Config = {
    ...parsed.data,
    PAYFAST_VERIFY_SOURCE: parsed.data.PAYFAST_VERIFY_SOURCE ?? production,
    PAYFAST_SERVER_VALIDATION: parsed.data.PAYFAST_SERVER_VALIDATION ?? production,
  };
  const missing = production ? PRODUCTION_REQUIRED.filter((name) => !config[name]) : [];
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n${missing.map((name) => `  ${name}: required when NODE_ENV=production`).join('\n')}`,
    );
  }
  if (production && !config.EVIDENCE_SIGNING_KEYS && !config.EVIDENCE_KEYS_IN_DATABASE) {
    throw new ConfigError(
      'Invalid configuration:\n  EVIDENCE_SIGNING_KEYS: required when NODE_ENV=production (or ' +
        'EVIDENCE_KEYS_IN_DATABASE=true to sign with the key kept in Postgres, which whoever reads the database ' +
        'can use to forge evidence; docs/configuration.md#evidence-signing-keys)',
    );
  }
  // A session token is accepted only from this Clerk instance (iss) and for our own front ends (azp), so
  // production refuses to start with a session key but without either (docs/configuration.md).
  const clerkUnpinned =
    production && config.CLERK_JWT_KEY ? CLERK_PRODUCTION_PINS.filter((n) => isUnset(config[n])) : [];
  if (clerkUnpinned.length > 0) {
    const lines = clerkUnpinned.map((n) => `  ${n}: required when NODE_ENV=production and CLERK_JWT_KEY is set`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (config.EVM_HISTORY_SOURCE === 'etherscan' && !config.ETHERSCAN_API_KEY) {
    throw new ConfigError('Invalid configuration:\n  ETHERSCAN_API_KEY: required when EVM_HISTORY_SOURCE=etherscan');
  }
  const temporalProblems = temporalAccessProblems(config);
  if (temporalProblems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${temporalProblems.map((line) => `  ${line}`).join('\n')}`);
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
