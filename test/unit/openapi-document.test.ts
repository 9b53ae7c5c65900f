import { buildOpenApiDocument } from '../../src/app/openapi/document';
import { FEATURES } from '../../src/app/features';
import { MAX_BATCH_ITEMS } from '../../src/batches';
import type { FeatureModule } from '../../src/platform/features/feature-module';
import { flatError, errorResponse } from '../../src/platform/openapi/error-shapes';
import type { OperationGroup } from '../../src/platform/openapi/operation-context';
import { SchemaComponents } from '../../src/platform/openapi/schema-components';
import { PUBLIC, only } from '../../src/platform/openapi/security';
import { COST_RULE, creditsWord, MINIMUM_CHARGE, RESCORE_PRICE } from '../../src/screening/pricing';
import { REPORT_PRICE, REPORT_PRICE_UNITS } from '../../src/x402/constants';

const OPTIONS = { config: { CRAWL_TIMEOUT_MAX_MS: 120_000 } };

/** A feature of one operation, GET /probe, answering `responses` under `security`. */
const probeFeature = (
  responses: Record<string, unknown> = {},
  security: Array<Record<string, string[]>> = PUBLIC,
): FeatureModule => {
  const probe: OperationGroup = () => ({
    '/probe': {
      get: {
        operationId: 'probe',
        tags: ['Service'],
        summary: 'A probe',
        responses: { 200: { description: 'ok' }, ...responses } as never,
        security,
      },
    },
  });
  return { name: 'probe', openapi: { operations: [probe] } };
};

describe('the OpenAPI document built from the features', () => {
  test("when it is built, then each feature's operations are in it, in FEATURES' order", () => {
    // Arrange
    const paths = Object.keys(buildOpenApiDocument(OPTIONS).paths);
    const context = { components: new SchemaComponents(), config: OPTIONS.config };

    // Act: where the first path of each feature that declares operations stands in the document
    const positions = FEATURES.flatMap((feature) =>
      (feature.openapi?.operations ?? []).slice(0, 1).map((group) => paths.indexOf(Object.keys(group(context))[0]!)),
    );

    // Assert
    expect(positions.length).toBeGreaterThan(10);
    expect(positions).not.toContain(-1);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  test('when a feature adds an operation, then the document holds it beside the others', () => {
    // Arrange / Act
    const document = buildOpenApiDocument(OPTIONS, [...FEATURES, probeFeature()]);

    // Assert
    expect(document.paths['/probe']?.get?.operationId).toBe('probe');
    expect(document.paths['/api/v1/kyt/job']).toBeDefined();
  });

  test('when two features describe the same path and method, then the document is refused', () => {
    // Arrange / Act / Assert
    expect(() => buildOpenApiDocument(OPTIONS, [probeFeature(), probeFeature()])).toThrow(
      'OpenAPI: GET /probe is described twice',
    );
  });

  test('when an operation names an error code no error table declares, then the document is refused', () => {
    // Arrange
    const undeclared = probeFeature({ 409: errorResponse('A made-up refusal', flatError(['NO_SUCH_CODE'])) });

    // Act / Assert
    expect(() => buildOpenApiDocument(OPTIONS, [...FEATURES, undeclared])).toThrow(/NO_SUCH_CODE/);
  });

  test('when an operation names a security scheme the document does not define, then the document is refused', () => {
    // Arrange
    const misspelt = probeFeature({}, only('x402Paymnet'));

    // Act / Assert
    expect(() => buildOpenApiDocument(OPTIONS, [...FEATURES, misspelt])).toThrow(
      'OpenAPI: probe names the unknown security scheme x402Paymnet',
    );
  });
});

describe("the prices and limits the document states are the server's", () => {
  const document = buildOpenApiDocument(OPTIONS) as any;
  const exampleOf = (response: any) => response.content['application/json'].examples.example.value;

  test(
    'when the screening operations are read, ' +
      'then the cost rule, the charge and the rescore price are the constants',
    () => {
      // Arrange
      const submit = document.paths['/api/v1/kyt/job'].post;
      const full = exampleOf(document.paths['/api/v1/kyt/job/{requestId}/fullresponse'].get.responses[200]).data;
      const rescore = document.paths['/api/v1/kyt/job/{requestId}/rescore'].post;

      // Act / Assert
      expect(submit.description).toContain(COST_RULE);
      expect(full.response.cost).toEqual({ rule: COST_RULE, credits: MINIMUM_CHARGE, depth_reached: 0 });
      expect(full.credits_charged).toBe(MINIMUM_CHARGE);
      expect(exampleOf(submit.responses[402])).toMatchObject({
        code: 'INSUFFICIENT_CREDITS',
        required: MINIMUM_CHARGE,
      });
      expect(rescore.description).toContain(`Costs ${creditsWord(RESCORE_PRICE)} (RESCORE_PRICE)`);
    },
  );

  test("when the x402 operations are read, then they state the report's price in dollars and USDC units", () => {
    // Arrange
    const report = document.paths['/api/v1/x402/kya/report'].post;

    // Act / Assert
    expect(report.summary).toBe(`KYA report for ${REPORT_PRICE} in USDC on Base, no account`);
    expect(report.responses[402].description).toContain(`amount ${REPORT_PRICE_UNITS} = ${REPORT_PRICE} USDC`);
    expect(document.components.schemas.PaymentRequired.properties.amount.description).toBe(
      `USDC base units (6 decimals): ${REPORT_PRICE_UNITS} = ${REPORT_PRICE}`,
    );
  });

  test('when the batches are read, then the most items a batch holds is MAX_BATCH_ITEMS', () => {
    // Arrange
    const batches = document.tags.find((tag: { name: string }) => tag.name === 'Batches');

    // Act / Assert
    expect(batches.description).toContain(`Up to ${MAX_BATCH_ITEMS.toLocaleString('en-US')} targets`);
    expect(document.paths['/api/v1/kyt/batch'].post.summary).toBe(
      `Screen up to ${MAX_BATCH_ITEMS} targets in one request`,
    );
  });
});
