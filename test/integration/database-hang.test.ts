import { startPausableProxy, type PausableProxy } from '../helpers/pausable-proxy';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/** The run's Postgres behind a proxy that can freeze: requests must be answered within the pool's timeouts. */
describe('a database that stops answering', () => {
  let proxy: PausableProxy;
  let stack: TestStack;
  let key: string;

  beforeAll(async () => {
    proxy = await startPausableProxy(process.env.TEST_DATABASE_URL as string);
    // A 2 s connect timeout, not 1 s: on a loaded CI machine a healthy connect through the proxy once took over 1 s
    // in this set-up, before anything was paused. The assertions below leave room for it (< 4.5 s).
    stack = await startTestStack({
      worker: false,
      env: { DATABASE_URL: proxy.url, DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '1000' },
    });
    // The set-up's own first connects through the proxy may meet a loaded machine (a CI run once lost both tests
    // here to one connect over 2 s): up to three tries, so only what happens after proxy.pause() is under test.
    for (let attempt = 1; ; attempt++) {
      try {
        ({ key } = await stack.createUser({ credits: 3 }));
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  });
  afterAll(async () => {
    proxy.resume();
    await stack.stop();
    await proxy.close();
  });

  test('When Postgres hangs, then an authenticated request is answered 503 SERVICE_UNAVAILABLE with Retry-After ' +
    'within the timeouts, and served again once it answers', async () => {
    // Arrange
    expect((await stack.http('GET', '/api/v1/credits/balance', { key })).status).toBe(200);
    proxy.pause();

    // Act
    const started = Date.now();
    const during = await stack.http('GET', '/api/v1/credits/balance', { key });
    const elapsedMs = Date.now() - started;
    proxy.resume();
    const after = await stack.http('GET', '/api/v1/credits/balance', { key });

    // Assert: statement timeout 1 s + 2 s client grace, never the minutes a hung socket would take
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    expect(during.headers.get('retry-after')).toBe('5');
    expect(elapsedMs).toBeLessThan(4_500);
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ balance: 3 });
  }, 30_000);

  test('When every pooled connection is stuck, then a request waiting for a connection is answered 503 ' +
    'after the connect timeout', async () => {
    // Arrange: hold every connection of the pool in a statement that does not finish while paused
    proxy.pause();
    const holders = Array.from({ length: stack.config.DATABASE_POOL_SIZE }, () =>
      stack.pool.query('SELECT 1').catch(() => undefined),
    );

    // Act
    const started = Date.now();
    const during = await stack.http('GET', '/api/v1/me', { key });
    const elapsedMs = Date.now() - started;
    proxy.resume();
    await Promise.all(holders);
    const after = await stack.http('GET', '/api/v1/me', { key });

    // Assert
    expect(during.status).toBe(503);
    expect(during.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(elapsedMs).toBeLessThan(4_500);
    expect(after.status).toBe(200);
  }, 30_000);
});
