/**
 * Hostile input, generated: schemathesis (PyPI, pinned in scripts/schemathesis-venv.sh) fuzzes every
 * operation of the served OpenAPI document against the real local stack (embedded Postgres, Temporal
 * dev server, api + worker, and a local Base chain for x402) with valid credentials, then this script
 * reads its NDJSON event report and prints the cases run per operation and every 5xx. It exits
 * non-zero on any 5xx or unanswered request, on fewer than MIN_CASES cases, or when an operation of
 * the document was not exercised.
 *
 * Run: npm run test:schemathesis   (SCHEMATHESIS_MAX_EXAMPLES, SCHEMATHESIS_SEED to vary the run)
 *
 * Nothing leaves the machine: chains have no RPC configured (reference-data-only screening), PayPal's
 * certificates come from the test PKI through an injected fetcher, PayFast's validate call is off.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import globalSetup from '../setup/global-setup';
import globalTeardown from '../setup/global-teardown';
import { startAnvil } from '../helpers/anvil';
import { installBaseUsdc } from '../helpers/base-usdc';
import { startTestStack } from '../helpers/test-stack';
import { testPayPalVerifier, WEBHOOK_ENV } from '../helpers/webhooks';
import { formatSummary, operationsOf, summarizeEvents } from './schemathesis-report';

const MIN_CASES = 1_000;
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 100);
const SEED = process.env.SCHEMATHESIS_SEED ?? '13';
// anvil's account #1 pays the gas of settlements; the reports are never paid in this run.
const FACILITATOR_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const HISTORY_WEBHOOK_SECRET = 'schemathesis-activity-secret';

function schemathesisBinary(): string {
  const script = path.resolve(__dirname, '../../scripts/schemathesis-venv.sh');
  return execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n')
    .pop() as string;
}

/**
 * Runs in `cwd` (the report directory): schemathesis keeps a `.schemathesis` cache where it runs. Its own
 * report goes to `logPath`, not to the console: its pytest-style footer ("== 3 warnings in 72s ==") would read
 * as the CI run's test summary, which must be jest's. This script prints its own table instead.
 */
async function runSchemathesis(st: string, args: string[], cwd: string, logPath: string): Promise<number> {
  const log = createWriteStream(logPath);
  const child = spawn(st, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c ?? 1));
  });
  await new Promise((resolve) => log.end(resolve));
  return code;
}

interface FuzzTarget {
  url: string;
  /** An admin key with credits and a market-data budget the run cannot exhaust. */
  key: string;
  stop(): Promise<void>;
}

/** The real stack with every route configured (webhook secrets, x402 on a local Base), or nothing left running. */
async function startFuzzTarget(): Promise<FuzzTarget> {
  await globalSetup();
  const stops: Array<() => Promise<void>> = [() => globalTeardown()];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    const node = await startAnvil({ chainId: 8453 });
    stops.push(() => node.stop());
    await installBaseUsdc(node.rpcUrl);
    const stack = await startTestStack({
      env: {
        ...WEBHOOK_ENV,
        ACTIVITY_WEBHOOK_SECRET: HISTORY_WEBHOOK_SECRET,
        X402_PAY_TO: privateKeyToAccount(FACILITATOR_KEY).address,
        X402_RPC_URL: node.rpcUrl,
        X402_FACILITATOR_PRIVATE_KEY: FACILITATOR_KEY,
        // The deprecated synchronous routes would otherwise hold each generated case for up to 2 minutes.
        SYNC_ANALYZE_WAIT_MS: '2000',
        X402_REPORT_TIMEOUT_MS: '5000',
      },
      verifiers: { paypalVerifier: testPayPalVerifier() },
    });
    stops.push(() => stack.stop());
    const admin = await stack.createUser({ role: 'admin', credits: 1_000_000 });
    // Market data is rate-limited per key (free: 60 a minute); the fuzzer's key is enterprise.
    const { rows } = await stack.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE user_id = $1', [admin.id]);
    await stack.stores.users.setApiKeyRateLimit((rows[0] as { id: string }).id, 'enterprise', 1_000_000);
    return { url: stack.api.url, key: admin.key, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function main(): Promise<number> {
  const st = schemathesisBinary();
  const target = await startFuzzTarget();
  try {
    // Kept for a look after the run (test-artifacts/ is git-ignored), replaced by the next run.
    const reportDir = path.resolve(__dirname, '../../test-artifacts/schemathesis');
    await rm(reportDir, { recursive: true, force: true });
    await mkdir(reportDir, { recursive: true });
    const eventsPath = path.join(reportDir, 'events.ndjson');
    const logPath = path.join(reportDir, 'schemathesis.log');
    // From a file, so the document's own operation (GET /api/v1/openapi.json) is fuzzed like the others;
    // given its URL, schemathesis would only load it.
    const documentPath = path.join(reportDir, 'openapi.json');
    const documentText = await (await fetch(`${target.url}/api/v1/openapi.json`)).text();
    await writeFile(documentPath, documentText);
    const started = Date.now();
    const exitCode = await runSchemathesis(
      st,
      [
        'run',
        documentPath,
        '--url',
        target.url,
        '--header',
        `x-api-key: ${target.key}`,
        '--header',
        `X-Activity-Webhook-Secret: ${HISTORY_WEBHOOK_SECRET}`,
        '--checks',
        'not_a_server_error',
        '--phases',
        'examples,coverage,fuzzing',
        '--max-examples',
        String(MAX_EXAMPLES),
        '--seed',
        SEED,
        '--workers',
        '2',
        '--request-timeout',
        '30',
        '--continue-on-failure',
        '--suppress-health-check',
        'all',
        '--generation-database',
        'none',
        '--report',
        'ndjson',
        '--report-ndjson-path',
        eventsPath,
        '--output-sanitize',
        'true',
        '--output-truncate',
        'true',
        '--no-color',
      ],
      reportDir,
      logPath,
    );
    const seconds = (Date.now() - started) / 1000;
    const summary = summarizeEvents(await readFile(eventsPath, 'utf8'), operationsOf(JSON.parse(documentText)));
    console.log(
      formatSummary(summary, { seconds, minCases: MIN_CASES, reportPath: path.relative(process.cwd(), eventsPath) }),
    );
    const ok = summary.serverErrors.length === 0 && summary.cases >= MIN_CASES && summary.unexercised.length === 0;
    console.log(`schemathesis's own report: ${path.relative(process.cwd(), logPath)}`);
    if (!ok) console.log((await readFile(logPath, 'utf8')).split('\n').slice(-60).join('\n'));
    console.log(ok ? 'PASSED' : `FAILED (schemathesis exit code ${exitCode})`);
    return ok ? 0 : 1;
  } finally {
    await target.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
