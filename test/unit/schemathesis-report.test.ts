import { formatSummary, operationsOf, summarizeEvents } from '../hostile/schemathesis-report';

/** Event lines in the shape schemathesis 4.32's `--report ndjson` writes them (trimmed to the fields read). */
const scenario = (label: string, statuses: Array<number | null>, body = '{"success":false}') =>
  JSON.stringify({
    ScenarioFinished: {
      phase: 'fuzzing',
      status: 'success',
      recorder: {
        label,
        interactions: Object.fromEntries(
          statuses.map((status, i) => [
            `case${label.length}${i}`,
            {
              response:
                status === null
                  ? null
                  : { status_code: status, content: { $base64: Buffer.from(body).toString('base64') } },
            },
          ]),
        ),
      },
    },
  });
const skipped = (label: string) =>
  JSON.stringify({ ScenarioFinished: { phase: 'examples', status: 'skip', recorder: { label } } });

const DOCUMENT = { paths: { '/a': { get: {}, post: {}, parameters: [] }, '/b/{id}': { delete: {} } } };

describe('the schemathesis NDJSON report summary', () => {
  test('when the document is read, then every operation is listed as METHOD /path and path-level keys are not', () => {
    expect(operationsOf(DOCUMENT)).toEqual(['GET /a', 'POST /a', 'DELETE /b/{id}']);
  });

  test(
    'when scenarios answered 2xx, 4xx, a 500 and no answer, then cases, ' +
      'classes and server errors are counted per operation',
    () => {
      const ndjson = [
        JSON.stringify({ Initialize: { schemathesis_version: '4.32.5' } }),
        skipped('GET /a'),
        scenario('GET /a', [200, 200, 400]),
        scenario('GET /a', [404]),
        scenario('POST /a', [201, 500, null], '{"success":false,"error":"Internal error","code":"INTERNAL"}'),
        '',
      ].join('\n');
      const summary = summarizeEvents(ndjson, operationsOf(DOCUMENT));
      expect(summary.cases).toBe(7);
      expect(summary.operations).toEqual([
        { operation: 'GET /a', cases: 4, byClass: { '2xx': 2, '4xx': 2 } },
        { operation: 'POST /a', cases: 3, byClass: { '2xx': 1, '5xx': 1, none: 1 } },
        { operation: 'DELETE /b/{id}', cases: 0, byClass: {} },
      ]);
      expect(summary.serverErrors.map((e) => [e.operation, e.status, e.body.slice(0, 30)])).toEqual([
        ['POST /a', 500, '{"success":false,"error":"Inte'],
        ['POST /a', null, ''],
      ]);
      expect(summary.unexercised).toEqual(['DELETE /b/{id}']);
      const printed = formatSummary(summary, { seconds: 12, minCases: 1000, reportPath: '/tmp/events.ndjson' });
      expect(printed).toContain('schemathesis: 7 cases over 2/3 operations in 12 s; 5xx or unanswered: 2');
      expect(printed).toContain('not exercised: DELETE /b/{id}');
    },
  );
});
