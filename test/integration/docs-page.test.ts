import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, saveScreenshot } from '../helpers/browser';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/** GET /docs: Swagger UI over /api/v1/openapi.json, every byte from this server. */
describe('the API docs page', () => {
  let stack: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  test(
    'when /docs is fetched, then an HTML page under a strict ' + 'CSP loads only local files, and no script is inline',
    async () => {
      const res = await fetch(`${stack.api.url}/docs`);
      const html = await res.text();
      const csp = res.headers.get('content-security-policy') ?? '';

      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(html).not.toMatch(/https?:\/\//);
      expect([...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])).toEqual([
        '/docs/assets/swagger-ui.css',
        '/docs/assets/favicon-32x32.png',
        '/docs/assets/favicon-16x16.png',
        '/docs/assets/swagger-ui-bundle.js',
        '/docs/init.js',
      ]);
      expect(html).not.toMatch(/<script>[^<]/);
    },
  );

  test(
    'when the initializer and assets are fetched, then they come from swagger-ui-dist and our own file, ' +
      'and nothing else of the package is served',
    async () => {
      const get = (p: string) => fetch(`${stack.api.url}${p}`);
      const init = await (await get('/docs/init.js')).text();
      expect(init).toContain("url: '/api/v1/openapi.json'");
      expect(init).toContain('validatorUrl: null');
      expect(init).toContain('persistAuthorization: false');
      const bundle = await get('/docs/assets/swagger-ui-bundle.js');
      expect([bundle.status, bundle.headers.get('content-type')]).toEqual([200, expect.stringMatching(/javascript/)]);
      expect((await get('/docs/assets/swagger-ui.css')).status).toBe(200);
      expect((await get('/docs/assets/index.html')).status).toBe(404);
      expect((await get('/docs/assets/swagger-initializer.js')).status).toBe(404);
      expect((await get('/docs/assets/..%2Fpackage.json')).status).toBe(404);
    },
  );

  test(
    'when a browser opens /docs, then Swagger UI renders every operation of the document with no request ' +
      'leaving this server and no error',
    async () => {
      const doc = await (await fetch(`${stack.api.url}/api/v1/openapi.json`)).json();
      const operations = Object.values<any>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
      const { page, pageErrors } = await openPage(browser);
      const requests: string[] = [];
      const consoleErrors: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));

      await page.goto(`${stack.api.url}/docs`);
      await page.locator('.opblock').first().waitFor();
      const rendered = await page.locator('.opblock').count();
      const title = await page.locator('.info .title').textContent();
      await saveScreenshot(page, 'api-docs');

      expect(title).toContain('chainscreen');
      expect(rendered).toBe(operations);
      expect(requests.filter((u) => !u.startsWith(stack.api.url))).toEqual([]);
      expect(requests).toContain(`${stack.api.url}/api/v1/openapi.json`);
      expect([pageErrors, consoleErrors]).toEqual([[], []]);
    },
  );

  test(
    'when a key is entered in Authorize, then no browser storage holds it, and after a reload the page asks ' +
      'for it again',
    async () => {
      const key = 'docs-typed-key-never-stored-0123456789';
      const { page, pageErrors } = await openPage(browser);
      await page.goto(`${stack.api.url}/docs`);
      await page.locator('.btn.authorize').first().click();
      const modal = page.locator('.modal-ux');
      await modal.locator('input').first().fill(key);
      await modal.getByRole('button', { name: 'Apply credentials' }).first().click();
      await modal.getByRole('button', { name: 'Remove authorization' }).first().waitFor();

      const storage = () =>
        page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
      const afterAuthorize = await storage();
      await page.reload();
      await page.locator('.btn.authorize').first().click();
      const inputsAfterReload = await page.locator('.modal-ux input').count();

      expect(afterAuthorize).not.toContain(key);
      expect(await page.evaluate(() => localStorage.length)).toBe(0);
      // Nothing restored: every scheme's field is offered again (an authorized scheme shows no input).
      expect(inputsAfterReload).toBeGreaterThan(0);
      expect(await page.locator('.modal-ux input').first().inputValue()).toBe('');
      expect(pageErrors).toEqual([]);
    },
  );
});
