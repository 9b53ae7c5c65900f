import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { X402_ERRORS } from './error-codes';
import { x402ConfigSlice } from './config';
import { x402OpenApi } from './openapi';
import { x402Routes } from './routes';

/** What the x402 feature declares to the composition root (src/platform/features/feature-module.ts). */
export const x402Module = {
  name: 'x402',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: X402_ERRORS,
  config: x402ConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations') },
  openapi: x402OpenApi,
  routes: x402Routes,
} satisfies FeatureModule;
