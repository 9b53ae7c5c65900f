import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { ERROR_CODES, declared } from '../../src/app/declared-error-codes';
import { FEATURES } from '../../src/app/features';
import { buildOpenApiDocument } from '../../src/app/openapi/document';
import { AppError, defineErrorCodes, findErrorCode, PLATFORM_ERRORS } from '../../src/platform/errors';
import { ERROR_CODE_PATTERN } from '../../src/platform/errors/error-table';
import { describeFailure, failureCode, toApplicationFailure } from '../../src/platform/errors/temporal-failures';
import { flatError, structuredError } from '../../src/platform/http/errors';
import { SCREENING_ERRORS } from '../../src/screening/error-codes';
import { failedJobCode } from '../../src/screening/failed-job-code';

describe('error tables', () => {
  it('declare each code once, under its own name, in UPPER_SNAKE_CASE', () => {
    const tables = [PLATFORM_ERRORS, ...FEATURES.flatMap((feature) => (feature.errors ? [feature.errors] : []))];
    const entries = tables.flatMap((table) => Object.entries(table));
    for (const [key, entry] of entries) {
      expect(entry.code).toBe(key);
      expect(entry.code).toMatch(ERROR_CODE_PATTERN);
    }
    expect(ERROR_CODES.size).toBe(entries.length);
  });

  it('refuse a code that is not UPPER_SNAKE_CASE (it would not be read back from Temporal)', () => {
    const define = defineErrorCodes as (specs: Record<string, { status: number; retryable: boolean }>) => unknown;
    expect(() => define({ ChainUnavailable: { status: 502, retryable: true } })).toThrow(/UPPER_SNAKE_CASE/);
  });

  it('let the OpenAPI document name declared codes only', () => {
    expect(declared(['NOT_FOUND', 'INSUFFICIENT_CREDITS'])).toEqual(['NOT_FOUND', 'INSUFFICIENT_CREDITS']);
    expect(() => declared(['NOT_FOUND', 'NO_SUCH_CODE'])).toThrow(/NO_SUCH_CODE/);
    // Building the document checks every code its error responses name.
    expect(() => buildOpenApiDocument({ config: { CRAWL_TIMEOUT_MAX_MS: 60_000 } })).not.toThrow();
  });

  it("match the statuses docs/architecture.md's code table gives", () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/architecture.md'), 'utf8');
    const section = doc.slice(
      doc.indexOf('## One error vocabulary'),
      doc.indexOf('\n## ', doc.indexOf('## One error')),
    );
    const rows = [...section.matchAll(/^\| ((?:`[A-Z_]+`(?:, )?)+) \| (\d{3}) \|/gm)];
    expect(rows.length).toBeGreaterThan(10);
    for (const [, codes, status] of rows) {
      for (const [, code] of (codes as string).matchAll(/`([A-Z_]+)`/g))
        expect({ code, status: ERROR_CODES.get(code as string)?.status }).toEqual({ code, status: Number(status) });
    }
  });
});

describe('errors raised and answered from a table entry', () => {
  it('AppError takes its status and retryability from the entry, narrowed per error', () => {
    const err = new AppError(SCREENING_ERRORS.CHAIN_UNAVAILABLE, 'node down');
    expect({ code: err.code, httpStatus: err.httpStatus, retryable: err.retryable }).toEqual({
      code: 'CHAIN_UNAVAILABLE',
      httpStatus: 502,
      retryable: true,
    });
    expect(new AppError(SCREENING_ERRORS.CHAIN_UNAVAILABLE, 'key refused', { retryable: false }).retryable).toBe(false);
  });

  it("flatError and structuredError answer the entry's status and code in the contract's two shapes", () => {
    const flat = flatError(PLATFORM_ERRORS.NOT_FOUND, 'Job not found', { request_id: 'r' });
    expect({ status: flat.status, body: flat.body }).toEqual({
      status: 404,
      body: { success: false, error: 'Job not found', code: 'NOT_FOUND', request_id: 'r' },
    });
    const structured = structuredError(PLATFORM_ERRORS.RATE_LIMITED, 'slow down', { limit: 1 });
    expect({ status: structured.status, body: structured.body }).toEqual({
      status: 429,
      body: { success: false, error: { code: 'RATE_LIMITED', message: 'slow down', details: { limit: 1 } } },
    });
  });

  it("a failed job's stored code answers its declared status, anything else ANALYSIS_FAILED", () => {
    expect(failedJobCode('TRANSACTION_NOT_FOUND')).toBe(SCREENING_ERRORS.TRANSACTION_NOT_FOUND);
    expect(failedJobCode('INSUFFICIENT_CREDITS').status).toBe(402);
    expect(failedJobCode(undefined)).toBe(PLATFORM_ERRORS.ANALYSIS_FAILED);
    expect(failedJobCode('SOMETHING_ELSE')).toBe(PLATFORM_ERRORS.ANALYSIS_FAILED);
    expect(findErrorCode('NOT_FOUND', SCREENING_ERRORS)).toBeUndefined();
  });
});

describe('codes across Temporal', () => {
  it('an AppError becomes a failure of its code, read back without a global table', () => {
    const failure = toApplicationFailure(new AppError(SCREENING_ERRORS.INVALID_TARGET, 'not an address'));
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect((failure as ApplicationFailure).nonRetryable).toBe(true);
    expect(failureCode(failure)).toBe('INVALID_TARGET');
    expect(describeFailure(failure)).toEqual({ code: 'INVALID_TARGET', message: 'not an address' });
  });

  it('a failure that is not ours (a class name, or the old PascalCase types 1.0 does not read) is not a code', () => {
    const theirs = ApplicationFailure.create({ type: 'TypeError', message: 'x is undefined' });
    expect(failureCode(theirs)).toBeUndefined();
    expect(failureCode(ApplicationFailure.create({ type: 'ChainUnavailable', message: 'old' }))).toBeUndefined();
    expect(describeFailure(theirs)).toEqual({ code: 'ANALYSIS_FAILED', message: 'x is undefined' });
    expect(describeFailure(new Error('boom'))).toEqual({ code: 'ANALYSIS_FAILED', message: 'boom' });
  });
});
