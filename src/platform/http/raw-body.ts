import express, { type Request } from 'express';
import { PLATFORM_ERRORS } from '../errors';
import { flatError, type HttpError } from './errors';

/**
 * Signatures cover the exact bytes sent, so webhook routes read the raw body whatever its content
 * type (a JSON parser would re-serialize it and break verification).
 */
export const rawBody = (limit: string) => express.raw({ type: () => true, limit });

export const bodyBytes = (req: Request): Buffer => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));

export const invalidSignature = (reason: string): HttpError =>
  flatError(PLATFORM_ERRORS.INVALID_SIGNATURE, 'Unauthorized', { reason });

export const notConfigured = (what: string, variables: string): HttpError =>
  flatError(
    PLATFORM_ERRORS.WEBHOOK_NOT_CONFIGURED,
    `${what} webhooks are not configured on this deployment (${variables})`,
  );
