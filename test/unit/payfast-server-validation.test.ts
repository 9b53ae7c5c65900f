import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PayFastUnavailableError } from '../../src/billing/payfast/errors';
import { itnParamStringForValidation } from '../../src/billing/payfast/itn';
import {
  createPayFastServerValidator,
  payfastProcessUrl,
  payfastValidateUrl,
} from '../../src/billing/payfast/server-validation';

const FIXTURES = path.join(__dirname, '../fixtures/webhooks/payfast');
const VALID_BODY = readFileSync(path.join(FIXTURES, 'validate-response.VALID.txt'));
const INVALID_BODY = readFileSync(path.join(FIXTURES, 'validate-response.INVALID.txt'));
const ITN_BODY = readFileSync(path.join(FIXTURES, 'events/COMPLETE_initial.form.txt'));

interface ReceivedRequest {
  method: string | undefined;
  url: string | undefined;
  contentType: string | undefined;
  body: string;
}

/** A stand-in for PayFast's /eng/query/validate; each test decides how it answers. */
class FakePayFast {
  readonly received: ReceivedRequest[] = [];
  respond: (res: ServerResponse) => void = (res) => res.end(VALID_BODY);
  private readonly server: Server = createServer((req, res) => this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/eng/query/validate`;
  }

  async stop(): Promise<void> {
    // Hanging requests keep their sockets open; close them so the server can shut down.
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.received.push({
        method: req.method,
        url: req.url,
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      });
      this.respond(res);
    });
  }
}

describe('PayFast URLs', () => {
  test('when asked per mode, then they give the documented sandbox and live endpoints', () => {
    // Assert
    expect(payfastValidateUrl('sandbox')).toBe('https://sandbox.payfast.co.za/eng/query/validate');
    expect(payfastValidateUrl('live')).toBe('https://www.payfast.co.za/eng/query/validate');
    expect(payfastProcessUrl('sandbox')).toBe('https://sandbox.payfast.co.za/eng/process');
    expect(payfastProcessUrl('live')).toBe('https://www.payfast.co.za/eng/process');
  });
});

describe('createPayFastServerValidator against a local fake', () => {
  const fake = new FakePayFast();
  let url: string;
  const paramString = itnParamStringForValidation(ITN_BODY);

  beforeAll(async () => {
    url = await fake.start();
  });

  afterAll(async () => {
    await fake.stop();
  });

  beforeEach(() => {
    fake.received.length = 0;
  });

  test(
    'when PayFast answers VALID, then it resolves true and ' + 'PayFast got exactly the param string as a form post',
    async () => {
      // Arrange
      fake.respond = (res) => res.end(VALID_BODY);
      const validate = createPayFastServerValidator({ url });

      // Act
      const valid = await validate(paramString);

      // Assert
      expect(valid).toBe(true);
      expect(fake.received).toEqual([
        {
          method: 'POST',
          url: '/eng/query/validate',
          contentType: 'application/x-www-form-urlencoded',
          body: paramString,
        },
      ]);
      expect(fake.received[0]?.body).toBe(
        ITN_BODY.toString('utf8').replace('&signature=1cf3e17fcaea635aad9e90333cfb82d8', ''),
      );
      expect(fake.received[0]?.body).not.toContain('signature=');
      expect(fake.received[0]?.body).not.toContain('passphrase');
    },
  );

  test('when PayFast answers INVALID, then it resolves false', async () => {
    // Arrange
    fake.respond = (res) => res.end(INVALID_BODY);
    const validate = createPayFastServerValidator({ url });

    // Act
    const valid = await validate(paramString);

    // Assert
    expect(valid).toBe(false);
    expect(fake.received).toHaveLength(1);
  });

  test(
    'when the answer has surrounding whitespace and ' + 'further lines, then only the trimmed first line counts',
    async () => {
      // Arrange
      fake.respond = (res) => res.end('  VALID \r\n<!-- debug -->\n');
      const validate = createPayFastServerValidator({ url });

      // Act
      const valid = await validate(paramString);

      // Assert
      expect(valid).toBe(true);
    },
  );

  test('when PayFast answers HTTP 500, then it throws PayFastUnavailableError', async () => {
    // Arrange
    fake.respond = (res) => {
      res.statusCode = 500;
      res.end(VALID_BODY);
    };
    const validate = createPayFastServerValidator({ url });

    // Act
    const result = validate(paramString);

    // Assert
    await expect(result).rejects.toThrow(PayFastUnavailableError);
    await expect(validate(paramString)).rejects.toThrow('HTTP 500');
  });

  test.each(['', 'VALIDATED', 'invalid', '<html>maintenance</html>'])(
    'when PayFast answers %j with 200, then it throws PayFastUnavailableError rather than guessing',
    async (answer) => {
      // Arrange
      fake.respond = (res) => res.end(answer);
      const validate = createPayFastServerValidator({ url });

      // Act
      const result = validate(paramString);

      // Assert
      await expect(result).rejects.toThrow(PayFastUnavailableError);
    },
  );

  test('when PayFast never answers, then it throws PayFastUnavailableError after the timeout', async () => {
    // Arrange
    fake.respond = () => undefined;
    const validate = createPayFastServerValidator({ url, timeoutMs: 200 });
    const started = Date.now();

    // Act
    const result = validate(paramString);

    // Assert
    await expect(result).rejects.toThrow(PayFastUnavailableError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fake.received).toHaveLength(1);
  });

  test('when PayFast sends headers and then stalls the body, then it still times out', async () => {
    // Arrange
    fake.respond = (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('VAL');
    };
    const validate = createPayFastServerValidator({ url, timeoutMs: 200 });

    // Act
    const result = validate(paramString);

    // Assert
    await expect(result).rejects.toThrow(PayFastUnavailableError);
  });

  test('when PayFast redirects, then it throws PayFastUnavailableError instead of following', async () => {
    // Arrange
    fake.respond = (res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    };
    const validate = createPayFastServerValidator({ url });

    // Act
    const result = validate(paramString);

    // Assert
    await expect(result).rejects.toThrow(PayFastUnavailableError);
    expect(fake.received.map((request) => request.url)).toEqual(['/eng/query/validate']);
  });
});

describe('createPayFastServerValidator with an injected fetch', () => {
  test('when the network call fails, then it throws PayFastUnavailableError carrying the cause', async () => {
    // Arrange
    const cause = new TypeError('fetch failed');
    const fetchStub = jest.fn<ReturnType<typeof fetch>, Parameters<typeof fetch>>(async () => {
      throw cause;
    });
    const validate = createPayFastServerValidator({
      url: 'https://sandbox.payfast.co.za/eng/query/validate',
      fetch: fetchStub,
    });

    // Act
    const error = await validate('a=1').catch((err: unknown) => err);

    // Assert
    expect(error).toBeInstanceOf(PayFastUnavailableError);
    expect((error as PayFastUnavailableError).cause).toBe(cause);
    expect(fetchStub).toHaveBeenCalledWith(
      'https://sandbox.payfast.co.za/eng/query/validate',
      expect.objectContaining({ method: 'POST', body: 'a=1' }),
    );
  });
});
