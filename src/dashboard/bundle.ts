import path from 'node:path';
import { build } from 'esbuild';
import { flatError } from '../platform/http/errors';
import { errorFields, type Logger } from '../platform/logging/logger';
import { PLATFORM_ERRORS } from '../platform/errors';

/** One built file of the dashboard, kept in memory and served with its content type. */
export interface DashboardAsset {
  contentType: string;
  body: Buffer;
}

export type DashboardAssets = ReadonlyMap<string, DashboardAsset>;

const ENTRY = path.join(__dirname, 'web', 'main.tsx');
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Bundles the dashboard (Preact, socket.io-client, cytoscape, lightweight-charts) from node_modules in
 * memory with esbuild: no build server, no files written, no network. About half a second, once per process.
 */
export async function buildDashboardAssets(): Promise<DashboardAssets> {
  const result = await build({
    entryPoints: { main: ENTRY },
    bundle: true,
    write: false,
    outdir: '/assets',
    format: 'esm',
    target: ['es2022'],
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const assets = new Map<string, DashboardAsset>();
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    assets.set(name, {
      contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream',
      body: Buffer.from(file.contents),
    });
  }
  return assets;
}

/**
 * Starts the build now (so the first page load does not wait for it) and hands every caller the same
 * result. A failed build is logged once and answered as 503 on the dashboard only; the API is unaffected.
 */
export function loadDashboardAssetsOnce(log: Logger): () => Promise<DashboardAssets> {
  const built = buildDashboardAssets().catch((err: unknown) => {
    log.error('dashboard bundle failed to build; /app answers 503', errorFields(err));
    return null;
  });
  return async () => {
    const assets = await built;
    if (!assets)
      throw flatError(
        PLATFORM_ERRORS.SERVICE_UNAVAILABLE,
        'The dashboard is unavailable on this server; the API works as documented at /docs',
      );
    return assets;
  };
}
