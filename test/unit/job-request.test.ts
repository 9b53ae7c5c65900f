import { HttpError } from '../../src/platform/http/errors';
import { parseJobRequest } from '../../src/screening/job-request';
import { SUPPORTED_CHAINS } from '../../src/screening/chains/chain';
import { ADDRESS_FORMAT_HINT, TXID_FORMAT_HINT } from '../../src/screening/chains/target-format';

const LIMITS = { defaultCrawlTimeoutMs: 8000, maxCrawlTimeoutMs: 120_000 };
const EVM = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // data/risk/sanctions_ofac.csv
// data/risk/stablecoin_blacklist.csv
const ETH_TX = '0x520a66112467b4b79016c2a62658b56e8f78049bae8bf6f4ce4bf39ec2d75ba8';
const TRON = 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz'; // data/risk/sanctions_ofac.csv

interface StructuredBody {
  success: boolean;
  error: { code: string; message: string; details: { parameter: string; expected: string } };
}

function httpError(body: unknown): { status: number; body: StructuredBody } {
  try {
    parseJobRequest(body, LIMITS);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return { status: err.status, body: err.body as unknown as StructuredBody };
  }
  throw new Error('expected parseJobRequest to throw');
}

describe('parseJobRequest', () => {
  test(
    'when a valid address request is given, then a KYA request with the canonical address and the default ' +
      'crawl timeout is returned',
    () => {
      // Arrange
      const body = { chain: 'ethereum', address: EVM.toUpperCase().replace('0X', '0x') };

      // Act
      const request = parseJobRequest(body, LIMITS);

      // Assert
      expect(request).toEqual({
        apiType: 'KYA',
        chain: 'ethereum',
        target: EVM,
        crawlTimeoutMs: 8000,
        referenceId: null,
      });
    },
  );

  test(
    'when a valid txid request without 0x is given, then ' + 'a KYT request with the canonical 0x txid is returned',
    () => {
      // Arrange
      const body = { chain: 'ethereum', txid: ETH_TX.slice(2), crawlTimeout: 30_000 };

      // Act
      const request = parseJobRequest(body, LIMITS);

      // Assert
      expect(request).toEqual({
        apiType: 'KYT',
        chain: 'ethereum',
        target: ETH_TX,
        crawlTimeoutMs: 30_000,
        referenceId: null,
      });
    },
  );

  test(
    'when both address and txid are given, then a 400 INVALID_PARAMETER with parameter and ' +
      'expected details is thrown',
    () => {
      // Arrange
      const body = { chain: 'ethereum', address: EVM, txid: ETH_TX };

      // Act
      const { status, body: answer } = httpError(body);

      // Assert
      expect(status).toBe(400);
      expect(answer.success).toBe(false);
      expect(answer.error.code).toBe('INVALID_PARAMETER');
      expect(answer.error.details).toEqual({
        parameter: 'address,txid',
        expected: 'exactly one of address (KYA) or txid (KYT)',
      });
      expect(answer.error.message).toContain('address,txid');
    },
  );

  test.each([
    ['absent', { chain: 'ethereum' }],
    ['empty strings', { chain: 'ethereum', address: '', txid: '' }],
  ])('when address and txid are both %s, then a 400 asks for exactly one of them', (_what, body) => {
    // Arrange / Act
    const { status, body: answer } = httpError(body);

    // Assert
    expect(status).toBe(400);
    expect(answer.error.code).toBe('INVALID_PARAMETER');
    expect(answer.error.details).toEqual({
      parameter: 'address|txid',
      expected: 'exactly one of address (KYA) or txid (KYT)',
    });
  });

  test.each([0, -5, 1.5, 999, '5000', 120_001])(
    'when crawlTimeout is %p, then a 400 naming crawlTimeout is thrown',
    (crawlTimeout) => {
      // Arrange
      const body = { chain: 'ethereum', address: EVM, crawlTimeout };

      // Act
      const { status, body: answer } = httpError(body);

      // Assert
      expect(status).toBe(400);
      expect(answer.error.code).toBe('INVALID_PARAMETER');
      expect(answer.error.details.parameter).toBe('crawlTimeout');
      expect(answer.error.details.expected).toBe('an integer number of milliseconds from 1000 to 120000');
    },
  );

  test.each([1000, 120_000])('when crawlTimeout is at the bound %i, then it is accepted', (crawlTimeout) => {
    // Arrange / Act
    const request = parseJobRequest({ chain: 'ethereum', address: EVM, crawlTimeout }, LIMITS);

    // Assert
    expect(request.crawlTimeoutMs).toBe(crawlTimeout);
  });

  test('when the chain is unknown, then a 400 listing the supported chains is thrown', () => {
    // Arrange
    const body = { chain: 'litecoinz', address: EVM };

    // Act
    const { status, body: answer } = httpError(body);

    // Assert
    expect(status).toBe(400);
    expect(answer.error.details.parameter).toBe('chain');
    for (const chain of SUPPORTED_CHAINS) expect(answer.error.details.expected).toContain(chain);
  });

  test('when the chain is missing, then a 400 naming chain is thrown', () => {
    // Arrange / Act
    const { status, body: answer } = httpError({ address: EVM });

    // Assert
    expect(status).toBe(400);
    expect(answer.error.details.parameter).toBe('chain');
  });

  test('when the body is not an object, then a 400 naming the body is thrown', () => {
    // Arrange / Act
    const { status, body: answer } = httpError(['ethereum']);

    // Assert
    expect(status).toBe(400);
    expect(answer.error.details.parameter).toBe('body');
  });

  test.each(['ETHEREUM', 'Binance-Smart-Chain', '  Tron '])(
    'when the chain is written as "%s", then it is matched case-insensitively',
    (chain) => {
      // Arrange
      const address = chain.trim().toLowerCase() === 'tron' ? TRON : EVM;

      // Act
      const request = parseJobRequest({ chain, address }, LIMITS);

      // Assert
      expect(request.chain).toBe(chain.trim().toLowerCase());
      expect(request.target).toBe(address);
    },
  );

  test('when reference_id is given, then it is returned', () => {
    // Arrange / Act
    const request = parseJobRequest({ chain: 'ethereum', address: EVM, reference_id: 'order-42' }, LIMITS);

    // Assert
    expect(request.referenceId).toBe('order-42');
  });

  test('when the deprecated referenceId alias is given, then it is accepted as the reference id', () => {
    // Arrange / Act
    const request = parseJobRequest({ chain: 'ethereum', address: EVM, referenceId: 'order-43' }, LIMITS);

    // Assert
    expect(request.referenceId).toBe('order-43');
  });

  test('when reference_id and referenceId agree, then the value is accepted', () => {
    // Arrange / Act
    const request = parseJobRequest(
      { chain: 'ethereum', address: EVM, reference_id: 'same', referenceId: 'same' },
      LIMITS,
    );

    // Assert
    expect(request.referenceId).toBe('same');
  });

  test('when reference_id and referenceId conflict, then a 400 naming referenceId is thrown', () => {
    // Arrange
    const body = { chain: 'ethereum', address: EVM, reference_id: 'a', referenceId: 'b' };

    // Act
    const { status, body: answer } = httpError(body);

    // Assert
    expect(status).toBe(400);
    expect(answer.error.code).toBe('INVALID_PARAMETER');
    expect(answer.error.details.parameter).toBe('referenceId');
  });

  test('when reference_id is longer than 256 characters, then a 400 naming reference_id is thrown', () => {
    // Arrange / Act
    const { status, body: answer } = httpError({ chain: 'ethereum', address: EVM, reference_id: 'r'.repeat(257) });

    // Assert
    expect(status).toBe(400);
    expect(answer.error.details.parameter).toBe('reference_id');
  });

  test('when the address does not fit the chain, then a 400 naming address with the chain format is thrown', () => {
    // Arrange
    const body = { chain: 'tron', address: EVM };

    // Act
    const { status, body: answer } = httpError(body);

    // Assert
    expect(status).toBe(400);
    expect(answer.error.code).toBe('INVALID_PARAMETER');
    expect(answer.error.details).toEqual({ parameter: 'address', expected: ADDRESS_FORMAT_HINT.tron });
  });

  test('when the txid does not fit the chain, then a 400 naming txid with the chain format is thrown', () => {
    // Arrange
    const body = { chain: 'bitcoin', txid: ETH_TX };

    // Act
    const { status, body: answer } = httpError(body);

    // Assert
    expect(status).toBe(400);
    expect(answer.error.details).toEqual({ parameter: 'txid', expected: TXID_FORMAT_HINT.bitcoin });
  });

  test('when the address is not a string, then a 400 naming address is thrown', () => {
    // Arrange / Act
    const { status, body: answer } = httpError({ chain: 'ethereum', address: 123 });

    // Assert
    expect(status).toBe(400);
    expect(answer.error.details.parameter).toBe('address');
  });

  test('when the limits allow a different default, then that default crawl timeout applies', () => {
    // Arrange / Act
    const request = parseJobRequest(
      { chain: 'ethereum', address: EVM },
      { defaultCrawlTimeoutMs: 15_000, maxCrawlTimeoutMs: 60_000 },
    );

    // Assert
    expect(request.crawlTimeoutMs).toBe(15_000);
  });
});

describe('HttpError', () => {
  test('when built from a structured body, then the message falls back to the status and fields are kept', () => {
    // Arrange / Act
    const err = new HttpError(400, { success: false, error: { code: 'X' } }, { 'Retry-After': '5' });

    // Assert
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('HttpError');
    expect(err.message).toBe('HTTP 400');
    expect(err.status).toBe(400);
    expect(err.headers).toEqual({ 'Retry-After': '5' });
  });

  test('when built from a flat body, then the message is the error string', () => {
    // Arrange / Act
    const err = new HttpError(404, { success: false, error: 'job not found' });

    // Assert
    expect(err.message).toBe('job not found');
  });
});

describe('parseJobRequest on the EVM networks added by configuration', () => {
  test.each(['arbitrum', 'base', 'optimism', 'polygon', 'avalanche', 'linea'])(
    'when %s is asked with a Tron address, then 400 names the address and the 0x format; with a 0x one, a KYA',
    (chain) => {
      const refused = httpError({ chain, address: TRON });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual({
        parameter: 'address',
        expected: ADDRESS_FORMAT_HINT[chain as 'base'],
      });
      expect(parseJobRequest({ chain, address: EVM.toUpperCase().replace('0X', '0x') }, LIMITS)).toMatchObject({
        apiType: 'KYA',
        chain,
        target: EVM,
      });
    },
  );

  test('when a network the service does not know is named (arbitrum-nova, zksync), then 400 lists the chains', () => {
    for (const chain of ['arbitrum-nova', 'zksync', 'ARB']) {
      const refused = httpError({ chain, address: EVM });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.parameter).toBe('chain');
      expect(refused.body.error.details.expected).toContain('arbitrum');
    }
  });
});
