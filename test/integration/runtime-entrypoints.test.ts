import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * `npm start`, `npm run api` and `npm run worker` run through tsx, which resolves modules (and the
 * tsconfig `paths`) differently from jest's swc transform: load every entry point's module graph the
 * way tsx does, so a module that only resolves for the type checker fails here and not in production.
 */
describe('runtime entry points under tsx', () => {
  test('when the api, worker and start modules are loaded by tsx, then every import resolves', () => {
    const script = [
      "require('./src/app/api-server')",
      "require('./src/app/worker-runtime')",
      "require('./src/x402/facilitator')",
      "console.log('resolved')",
    ].join(';');
    const run = spawnSync(process.execPath, [require.resolve('tsx/cli'), '-e', script], {
      cwd: path.resolve(__dirname, '..', '..'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).not.toMatch(/MODULE_NOT_FOUND|Cannot find module/);
    expect(run.stdout.trim()).toBe('resolved');
  });
});
