/**
 * Reads schemathesis's NDJSON event stream (`--report ndjson`): every finished scenario carries the
 * cases it sent and the response each one got. From those this counts cases per operation, answers
 * by status class, and every 5xx or unanswered request, independently of schemathesis's own verdict.
 */

export interface OperationTally {
  /** `METHOD /path` as in the OpenAPI document. */
  operation: string;
  cases: number;
  /** Answers per status class: `2xx`, `3xx`, `4xx`, `5xx`, or `none` when the request got no answer. */
  byClass: Record<string, number>;
}

export interface ServerErrorCase {
  operation: string;
  status: number | null;
  caseId: string;
  /** The start of the answer, to tell the failure without opening the report. */
  body: string;
}

export interface SchemathesisSummary {
  cases: number;
  operations: OperationTally[];
  /** 5xx answers and requests that got no answer (timeouts, dropped connections). */
  serverErrors: ServerErrorCase[];
  /** Operations of the document that no case reached. */
  unexercised: string[];
}

interface Interaction {
  response?: { status_code: number; content?: { $base64?: string } } | null;
}
interface ScenarioFinished {
  recorder?: { label: string; interactions?: Record<string, Interaction> };
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** `METHOD /path` for every operation of an OpenAPI document, the labels schemathesis reports under. */
export function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((method) => HTTP_METHODS.has(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

const statusClass = (status: number | undefined) => (status === undefined ? 'none' : `${Math.floor(status / 100)}xx`);

function bodyStart(response: Interaction['response']): string {
  const encoded = response?.content?.$base64;
  return encoded ? Buffer.from(encoded, 'base64').toString('utf8').slice(0, 200) : '';
}

export function summarizeEvents(ndjson: string, documentOperations: readonly string[]): SchemathesisSummary {
  const tallies = new Map<string, OperationTally>(
    documentOperations.map((operation) => [operation, { operation, cases: 0, byClass: {} }]),
  );
  const serverErrors: ServerErrorCase[] = [];
  for (const line of ndjson.split('\n')) {
    if (!line.startsWith('{"ScenarioFinished"')) continue;
    const recorder = (JSON.parse(line) as { ScenarioFinished: ScenarioFinished }).ScenarioFinished.recorder;
    if (!recorder?.interactions) continue;
    const tally = tallies.get(recorder.label) ?? { operation: recorder.label, cases: 0, byClass: {} };
    tallies.set(recorder.label, tally);
    for (const [caseId, interaction] of Object.entries(recorder.interactions)) {
      const status = interaction.response?.status_code;
      const klass = statusClass(status);
      tally.cases += 1;
      tally.byClass[klass] = (tally.byClass[klass] ?? 0) + 1;
      if (klass === '5xx' || klass === 'none')
        serverErrors.push({
          operation: recorder.label,
          status: status ?? null,
          caseId,
          body: bodyStart(interaction.response),
        });
    }
  }
  const operations = [...tallies.values()];
  return {
    cases: operations.reduce((sum, t) => sum + t.cases, 0),
    operations,
    serverErrors,
    unexercised: operations.filter((t) => t.cases === 0).map((t) => t.operation),
  };
}

/** The printed result: one line per operation, the totals, and every 5xx with its schemathesis case id. */
export function formatSummary(
  summary: SchemathesisSummary,
  run: { seconds: number; minCases: number; reportPath: string },
): string {
  const width = Math.max(...summary.operations.map((t) => t.operation.length));
  const classes = ['2xx', '3xx', '4xx', '5xx', 'none'];
  const lines = [
    '',
    `${'operation'.padEnd(width)}  ${'cases'.padStart(6)}  ${classes.map((c) => c.padStart(5)).join(' ')}`,
    ...[...summary.operations]
      .sort((a, b) => b.cases - a.cases)
      .map(
        (t) =>
          `${t.operation.padEnd(width)}  ${String(t.cases).padStart(6)}  ` +
          `${classes.map((c) => String(t.byClass[c] ?? 0).padStart(5)).join(' ')}`,
      ),
    '',
    `schemathesis: ${summary.cases} cases over ` +
      `${summary.operations.length - summary.unexercised.length}/${summary.operations.length} operations in ` +
      `${run.seconds.toFixed(0)} s; ` +
      `5xx or unanswered: ${summary.serverErrors.length} (required: 0 and at least ${run.minCases} cases)`,
    ...summary.unexercised.map((op) => `not exercised: ${op}`),
    ...summary.serverErrors.map((e) => `${e.status ?? 'no answer'} ${e.operation} (case ${e.caseId}): ${e.body}`),
    `events: ${run.reportPath}`,
  ];
  return lines.join('\n');
}
